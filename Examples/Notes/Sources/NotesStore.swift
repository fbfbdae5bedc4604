import Foundation
import GRDB

/// A note: what the example app keeps.
struct Note: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "note"
    var id: Int64
    var text: String
}

/// What the screen is told when something goes wrong, in plain words.
struct NotesProblem: Error {
    let message: String
}

/// The repository the example app's screen talks to. Two implementations: the fragile
/// one a team might have shipped, and the fixed one Chaos pushed them to write.
protocol NotesRepository {
    /// What the user was told at launch, if anything.
    var notice: String? { get }
    func add(_ note: Note) throws
    func all() throws -> [Note]
    func close()
}

enum NotesSchema {
    static func migrate(_ db: DatabaseWriter) throws {
        try db.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }
}
