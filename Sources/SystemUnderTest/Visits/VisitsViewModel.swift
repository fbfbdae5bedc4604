/// The visits list's state: loading, the list, an error with a message and a retry
/// that gives up after ``maxRetries`` (the favourites screen's contract, seed 002).
@MainActor
public final class VisitsViewModel: RetryingScreen {
    public enum State: String, Sendable {
        case loading, loaded, empty, error
    }

    /// The operation a retry repeats.
    enum Operation {
        case load
        case add(Visit)
        case remove(Int64)
    }

    public private(set) var state: State = .loading
    public private(set) var visits: [Visit] = []
    public private(set) var errorMessage: String?
    public private(set) var recoverySuggestion: String?
    public var retryCount: Int { retries.count }
    public var maxRetries: Int { retries.limit }

    private let fetchAll: FetchVisitsUseCase
    private let add: AddVisitUseCase
    private let remove: RemoveVisitUseCase
    var retries: BoundedRetry<Operation>

    public init(repository: any VisitsRepositoryProtocol, maxRetries: Int = 3) {
        fetchAll = FetchVisitsUseCase(repository: repository)
        add = AddVisitUseCase(repository: repository)
        remove = RemoveVisitUseCase(repository: repository)
        retries = BoundedRetry(limit: maxRetries)
    }

    public var canRetry: Bool { state == .error && retries.isOffered }

    @discardableResult
    public func load() async -> Bool {
        state = .loading
        return await perform(.load)
    }

    /// Adds a visit. True only when the store acknowledged the write.
    @discardableResult
    public func addVisit(_ visit: Visit) async -> Bool {
        await perform(.add(visit))
    }

    @discardableResult
    public func removeVisit(id: Int64) async -> Bool {
        await perform(.remove(id))
    }

    /// Repeats the failed operation, at most ``maxRetries`` times in a row.
    @discardableResult
    public func retry() async -> Bool {
        await retryFailedOperation()
    }

    var isShowingError: Bool { state == .error }

    func showRetriesExhausted() {
        errorMessage = PresentedError.retriesExhaustedMessage
        recoverySuggestion = nil
    }

    func perform(_ operation: Operation) async -> Bool {
        do {
            switch operation {
            case .load:
                visits = try await fetchAll.execute()
            case let .add(visit):
                try await add.execute(visit)
                visits.place(visit)
            case let .remove(id):
                try await remove.execute(id: id)
                visits.remove(id: id)
            }
        } catch {
            retries.recordFailure(operation)
            state = .error
            let presented = PresentedError(error)
            errorMessage = presented.message
            recoverySuggestion = presented.suggestion
            return false
        }
        state = visits.isEmpty ? .empty : .loaded
        errorMessage = nil
        recoverySuggestion = nil
        retries.recordSuccess()
        return true
    }
}
