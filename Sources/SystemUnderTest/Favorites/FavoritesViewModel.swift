/// The favourites screen's state (seed 002, phase 5): loading, the list, an error
/// with a message and a retry that gives up after ``maxRetries``.
@MainActor
public final class FavoritesViewModel: RetryingScreen {
    public enum State: String, Sendable {
        case loading, okey, empty, error
    }

    /// The operation a retry repeats.
    enum Operation {
        case load
        case add(Favorite)
        case remove(Int64)
    }

    public private(set) var state: State = .loading
    public private(set) var favorites: [Favorite] = []
    /// The error shown to the user, nil when none.
    public private(set) var errorMessage: String?
    public private(set) var recoverySuggestion: String?
    /// A non-blocking notice from the launch (data restored, read-only...), nil when none.
    public private(set) var notice: String?
    public private(set) var noticeSeverity: Severity = .none
    public var retryCount: Int { retries.count }
    public var maxRetries: Int { retries.limit }

    private let add: AddFavoriteUseCase
    private let remove: RemoveFavoriteUseCase
    private let fetchAll: FetchAllFavoritesUseCase
    private let isFavorite: IsFavoriteUseCase
    var retries: BoundedRetry<Operation>

    public init(repository: any FavoritesRepositoryProtocol, launchHealth: StoreHealth, maxRetries: Int = 3) {
        add = AddFavoriteUseCase(repository: repository)
        remove = RemoveFavoriteUseCase(repository: repository)
        fetchAll = FetchAllFavoritesUseCase(repository: repository)
        isFavorite = IsFavoriteUseCase(repository: repository)
        retries = BoundedRetry(limit: maxRetries)
        notice = launchHealth.userMessage
        noticeSeverity = launchHealth.severity
    }

    /// Whether the retry button is offered.
    public var canRetry: Bool { state == .error && retries.isOffered }

    /// What the user sees right now: an error beats a notice.
    public var surfaced: (severity: Severity, message: String?) {
        if state == .error { return (.error, errorMessage) }
        if let notice { return (noticeSeverity, notice) }
        return (.none, nil)
    }

    /// Loads the list. Returns true when it worked.
    @discardableResult
    public func load() async -> Bool {
        state = .loading
        return await perform(.load)
    }

    /// Adds a favourite. Returns true only when the store acknowledged the write.
    @discardableResult
    public func addFavorite(_ favorite: Favorite) async -> Bool {
        await perform(.add(favorite))
    }

    @discardableResult
    public func removeFavorite(id: Int64) async -> Bool {
        await perform(.remove(id))
    }

    public func checkFavorite(id: Int64) async -> Bool? {
        do {
            return try await isFavorite.execute(id: id)
        } catch {
            show(error)
            return nil
        }
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

    /// Runs one operation. For a write, true means the store acknowledged it; the list
    /// on screen is then updated in place rather than fetched again.
    func perform(_ operation: Operation) async -> Bool {
        do {
            switch operation {
            case .load:
                favorites = try await fetchAll.execute()
            case let .add(favorite):
                try await add.execute(favorite)
                favorites.place(favorite)
            case let .remove(id):
                try await remove.execute(id: id)
                favorites.remove(id: id)
            }
        } catch {
            retries.recordFailure(operation)
            show(error)
            return false
        }
        state = favorites.isEmpty ? .empty : .okey
        errorMessage = nil
        recoverySuggestion = nil
        retries.recordSuccess()
        return true
    }

    private func show(_ error: any Error) {
        state = .error
        let presented = PresentedError(error)
        errorMessage = presented.message
        recoverySuggestion = presented.suggestion
    }
}
