import GRDB

/// How the user has done in the quizzes of one set: answers given and answers right.
/// The row's `id` is the set's id (one row per set), so it survives launch recovery
/// like any other record and a snapshot keys it `quizStatistics:SETID`.
public struct QuizStatistics: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "quizStatistics"

    /// The id of the set these statistics belong to.
    public var id: Int64
    public var attempts: Int
    public var correct: Int

    public init(setID: Int64, attempts: Int = 0, correct: Int = 0) {
        self.id = setID
        self.attempts = attempts
        self.correct = correct
    }

    public var setID: Int64 { id }
}
