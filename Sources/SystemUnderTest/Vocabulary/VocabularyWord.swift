import GRDB

/// A word and its meaning, in one vocabulary set. A quiz shows the term and asks
/// for its meaning among the meanings of other words of the same set.
///
/// `setID` is indexed but carries no foreign-key constraint on purpose: launch
/// recovery salvages each table row by row, and a word whose set row was unreadable
/// must still be kept rather than make the whole table's salvage fail.
public struct VocabularyWord: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "vocabularyWord"

    public var id: Int64
    public var setID: Int64
    public var term: String
    public var meaning: String

    enum CodingKeys: String, CodingKey {
        case id, setID = "setId", term, meaning
    }

    public init(id: Int64, setID: Int64, term: String, meaning: String) {
        self.id = id
        self.setID = setID
        self.term = term
        self.meaning = meaning
    }

    /// The word a scenario adds for a given number: stable, so snapshots compare.
    public static func numbered(_ id: Int64, in setID: Int64) -> VocabularyWord {
        VocabularyWord(id: id, setID: setID, term: "word \(id)", meaning: "meaning of word \(id)")
    }
}
