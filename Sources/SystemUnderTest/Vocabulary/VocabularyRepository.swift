/// The repository the vocabulary use cases see. It passes errors up unchanged: the
/// data source already made them typed and presentable.
public protocol VocabularyRepositoryProtocol: Sendable {
    func overview() async throws -> [VocabularySetOverview]
    func words(inSet setID: Int64) async throws -> [VocabularyWord]
    func statistics(forSet setID: Int64) async throws -> QuizStatistics
    func createSet(_ set: VocabularySet) async throws
    func addWords(_ words: [VocabularyWord]) async throws
    func recordAnswer(setID: Int64, correct: Bool) async throws -> QuizStatistics
}

public struct VocabularyRepository: VocabularyRepositoryProtocol {
    let dataSource: any VocabularyDataSourceProtocol

    public init(dataSource: any VocabularyDataSourceProtocol) {
        self.dataSource = dataSource
    }

    public func overview() async throws -> [VocabularySetOverview] { try await dataSource.fetchOverview() }
    public func words(inSet setID: Int64) async throws -> [VocabularyWord] { try await dataSource.fetchWords(setID: setID) }
    public func statistics(forSet setID: Int64) async throws -> QuizStatistics { try await dataSource.fetchStatistics(setID: setID) }
    public func createSet(_ set: VocabularySet) async throws { try await dataSource.createSet(set) }
    public func addWords(_ words: [VocabularyWord]) async throws { try await dataSource.addWords(words) }
    public func recordAnswer(setID: Int64, correct: Bool) async throws -> QuizStatistics {
        try await dataSource.recordAnswer(setID: setID, correct: correct)
    }
}
