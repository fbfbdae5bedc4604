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
    let writer: DatabasePool

    init(_ writer: DatabasePool) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
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

    func write(_ text: String) throws -> Entry {
        try writer.write { db in try Entry(text: text).inserted(db) }
    }

    func entries() throws -> [Entry] {
        try writer.read { db in try Entry.order(Column("id")).fetchAll(db) }
    }
}
