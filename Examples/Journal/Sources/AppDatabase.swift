import Foundation
import GRDB

/// A journal entry: what the example app keeps.
struct Entry: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var text: String
    var mood: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The app's database, laid out as GRDB's documentation and many apps do: one
/// `DatabasePool` (WAL mode), a `DatabaseMigrator` with a migration per release.
final class AppDatabase {
    let writer: any DatabaseWriter

    /// `migrate: false` for a store opened read-only, whose migrations are all applied.
    init(_ writer: any DatabaseWriter, migrate: Bool = true) throws {
        self.writer = writer
        if migrate { try Self.migrator.migrate(writer) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "entry") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("text", .text).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            try db.alter(table: "entry") { table in table.add(column: "mood", .text) }
        }
        return migrator
    }

    /// What GRDB's demo app does at launch, with a setting meant for development only
    /// (`#if DEBUG` there; shipped here): a store whose schema is not exactly what its
    /// migrations make — a newer version of the app touched it — is erased and migrated
    /// from nothing. (What NOT to ship; it lives only in the demo variant.)
    static func eraseIfSchemaChanged(at path: String) {
        guard let pool = try? DatabasePool(path: path) else { return }
        var migrator = Self.migrator
        migrator.eraseDatabaseOnSchemaChange = true
        try? migrator.migrate(pool)
        try? pool.close()
    }

    func write(_ text: String) throws -> Entry {
        try writer.write { db in try Entry(text: text).inserted(db) }
    }

    /// What GRDB's demo app does at launch: an empty table gets a few entries, chosen at
    /// random, so the first screen is not blank.
    func addSamplesIfEmpty() throws {
        let texts = ["Rain all day", "Long walk", "New recipe", "Call with Anna", "Read by the window",
                     "Market morning", "Late train", "Quiet evening"]
        let moods = ["calm", "tired", "glad", nil]
        try writer.write { db in
            guard try Entry.fetchCount(db) == 0 else { return }
            for _ in 0..<8 {
                var entry = Entry(text: texts.randomElement() ?? "Hello", mood: moods.randomElement() ?? nil)
                try entry.insert(db)
            }
        }
    }

    func entries() throws -> [Entry] {
        try writer.read { db in try Entry.order(Column("id")).fetchAll(db) }
    }
}
