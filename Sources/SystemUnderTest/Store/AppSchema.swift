import GRDB

/// The app's tables, one migration per feature. Every feature's user data lives in
/// `userTables`, which is what backups protect, salvage copies and snapshots dump.
public enum AppSchema {
    /// Tables that hold user data, in dump order. Each has an integer primary key `id`.
    public static let userTables = ["favorite", "vocabularySet", "vocabularyWord", "quizStatistics", "family", "visit", "setting"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-favorites") { db in
            try db.create(table: "favorite") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("imageURL", .text).notNull()
            }
        }
        migrator.registerMigration("v2-vocabulary") { db in
            try db.create(table: "vocabularySet") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
            }
            // No foreign key on setId: salvage copies tables row by row (VocabularyWord.swift).
            try db.create(table: "vocabularyWord") { table in
                table.primaryKey("id", .integer)
                table.column("setId", .integer).notNull().indexed()
                table.column("term", .text).notNull()
                table.column("meaning", .text).notNull()
            }
            // One row per set: id is the set's id.
            try db.create(table: "quizStatistics") { table in
                table.primaryKey("id", .integer)
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("correct", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v-family") { db in try FamilyTables.create(db) }
        migrator.registerMigration("v-visits") { db in try VisitsTables.create(db) }
        migrator.registerMigration("v-settings") { db in try SettingsTables.create(db) }
        return migrator
    }
}
