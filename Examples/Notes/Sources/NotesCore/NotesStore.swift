import FaultPoints
import Foundation
import GRDB

/// A note: what the example app keeps.
public struct Note: Codable, FetchableRecord, PersistableRecord, Identifiable, Sendable {
    public static let databaseTableName = "note"
    public var id: Int64
    public var text: String
}

/// What the screen is told when something goes wrong, in plain words: its
/// `errorDescription`, as a `LocalizedError`'s.
public struct NotesProblem: LocalizedError {
    public let message: String

    public init(message: String) { self.message = message }

    public var errorDescription: String? { message }
}

/// The repository the example app's screen talks to. Two implementations: the fragile
/// one a team might have shipped, and the fixed one Chaos pushed them to write.
public protocol NotesRepository {
    /// What the user was told at launch, if anything.
    var notice: String? { get }
    /// Saves a new note; returns it with its id.
    func add(text: String) throws -> Note
    func all() throws -> [Note]
    func close()
}

extension FaultPoint {
    /// Where a save can fail: a unit test arms it with `withFaults` (or `.faults`).
    public static let notesSave = FaultPoint("store/notes/save")
}

enum NotesSchema {
    /// Inserts a note; returns it with the id SQLite gave it.
    static func insert(text: String, in db: Database) throws -> Note {
        try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [text])
        return Note(id: db.lastInsertedRowID, text: text)
    }

    static func migrate(_ db: DatabaseWriter) throws {
        try db.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }
}
