import GRDB

/// The app's tables, one migration per feature. Every feature's user data lives in
/// `userTables`, which is what backups protect, salvage copies and snapshots dump.
public enum AppSchema {
    /// Tables that hold user data, in dump order. Each has an integer primary key `id`.
    public static let userTables = ["favorite"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-favorites") { db in
            try db.create(table: "favorite") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("imageURL", .text).notNull()
            }
        }
        return migrator
    }
}
