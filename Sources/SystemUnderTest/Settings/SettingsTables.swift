import GRDB

/// The settings table, created by the `v-settings` migration of ``AppSchema``: one row
/// per setting the user chose, its id fixed by ``SettingKey/id``.
enum SettingsTables {
    static func create(_ db: Database) throws {
        try db.create(table: "setting") { table in
            table.primaryKey("id", .integer)
            table.column("key", .text).notNull().unique()
            table.column("value", .text).notNull()
        }
    }
}
