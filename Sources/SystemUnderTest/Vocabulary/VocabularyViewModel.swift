/// The vocabulary screen: the user's sets with their word counts and quiz results,
/// and the buttons that add a set or words. A failure shows `.error` with the seed's
/// plain message; a launch that needed help shows its notice.
@MainActor
public final class VocabularyViewModel {
    public enum State: String, Sendable {
        case loading, okey, empty, error
    }

    public private(set) var state: State = .loading
    public private(set) var sets: [VocabularySetOverview] = []
    /// The error shown to the user, nil when none.
    public private(set) var errorMessage: String?
    public private(set) var recoverySuggestion: String?
    /// A non-blocking notice from the launch (data restored, read-only...), nil when none.
    public let notice: String?
    public let noticeSeverity: Severity

    private let fetchOverview: FetchVocabularyOverviewUseCase
    private let create: CreateVocabularySetUseCase
    private let add: AddVocabularyWordsUseCase

    public init(repository: any VocabularyRepositoryProtocol, launchHealth: StoreHealth) {
        fetchOverview = FetchVocabularyOverviewUseCase(repository: repository)
        create = CreateVocabularySetUseCase(repository: repository)
        add = AddVocabularyWordsUseCase(repository: repository)
        notice = launchHealth.userMessage
        noticeSeverity = launchHealth.severity
    }

    /// The set called `name`, among those loaded (the first one, if names repeat).
    public func set(named name: String) -> VocabularySet? {
        sets.first { $0.set.name == name }?.set
    }

    /// Loads the list. Returns true when it worked.
    @discardableResult
    public func load() async -> Bool {
        state = .loading
        do {
            sets = try await fetchOverview.execute()
        } catch {
            show(error)
            return false
        }
        settle()
        return true
    }

    /// Creates a set. Returns true only when the store acknowledged the write.
    @discardableResult
    public func createSet(_ set: VocabularySet) async -> Bool {
        do {
            try await create.execute(set)
        } catch {
            show(error)
            return false
        }
        sets.removeAll { $0.set.id == set.id }
        let index = sets.firstIndex { $0.set.id > set.id } ?? sets.endIndex
        sets.insert(VocabularySetOverview(set: set, wordCount: 0, statistics: QuizStatistics(setID: set.id)), at: index)
        settle()
        return true
    }

    /// Adds words to their set, all or none. Returns true only when the store acknowledged them.
    @discardableResult
    public func addWords(_ words: [VocabularyWord]) async -> Bool {
        do {
            try await add.execute(words)
        } catch {
            show(error)
            return false
        }
        sets = sets.map { overview in
            var updated = overview
            updated.wordCount += words.count(where: { $0.setID == overview.set.id })
            return updated
        }
        settle()
        return true
    }

    private func settle() {
        state = sets.isEmpty ? .empty : .okey
        errorMessage = nil
        recoverySuggestion = nil
    }

    private func show(_ error: any Error) {
        state = .error
        let presented = PresentedError(error)
        errorMessage = presented.message
        recoverySuggestion = presented.suggestion
    }
}
