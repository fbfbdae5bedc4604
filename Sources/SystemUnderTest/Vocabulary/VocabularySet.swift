import GRDB

/// A named list of words the user studies (seed 000): the parent of
/// ``VocabularyWord`` and the unit quiz statistics are kept for.
public struct VocabularySet: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "vocabularySet"

    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// One row of the vocabulary list: a set, how many words it holds, and how the user
/// has done in its quizzes so far.
public struct VocabularySetOverview: Sendable, Equatable {
    public var set: VocabularySet
    public var wordCount: Int
    public var statistics: QuizStatistics

    public init(set: VocabularySet, wordCount: Int, statistics: QuizStatistics) {
        self.set = set
        self.wordCount = wordCount
        self.statistics = statistics
    }
}
