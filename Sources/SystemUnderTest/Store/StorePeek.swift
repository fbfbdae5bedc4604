import Foundation
import GRDB

/// What a read-only look at the store says, before anything opens it for writing (a
/// look that writes nothing, so a store the app must leave alone stays as it was).
///
/// Two things a normal open cannot tell: a store written by a newer version of the app
/// (it lists migrations this version does not know), and a store that lost its content
/// — emptied to zero bytes, or cut back to a schema-less first page — which SQLite
/// opens happily as a new, empty database: taken at face value, every record is gone
/// and nobody is told.
enum StorePeek: Equatable {
    /// A file with no schema at all.
    case blank
    /// Written by a newer version: these migrations are unknown here. Only said of a
    /// store that passes its check: damage can make any table read as anything.
    case newer([String])
    /// The normal launch decides: sound or damaged.
    case ordinary

    static func of(_ path: String) -> StorePeek {
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        if size?.intValue == 0 { return .blank }
        guard let queue = try? ReadOnlyStore.open(path) else { return .ordinary }
        defer { try? queue.close() }
        let peek: StorePeek? = try? queue.read { db in
            guard try db.tableExists("grdb_migrations") else {
                let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
                return tables == 0 ? .blank : .ordinary
            }
            let unknown = try AppSchema.migrator.appliedIdentifiers(db).subtracting(AppSchema.migrator.migrations).sorted()
            // quick_check does not compare indexes with their tables: a flipped byte in a
            // migration's name passes it. The full check of that one table does not.
            guard !unknown.isEmpty,
                  try String.fetchAll(db, sql: "PRAGMA integrity_check(grdb_migrations)") == ["ok"],
                  StoreIntegrity.quickCheck(db) == nil else { return .ordinary }
            return .newer(unknown)
        }
        return peek ?? .ordinary
    }

    /// Whether the backup at `url` holds any of the user's records.
    static func holdsRecords(_ url: URL) -> Bool {
        guard let queue = try? ReadOnlyStore.open(url.path) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { db in
            try AppSchema.userTables.contains { table in
                try db.tableExists(table) && (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0) > 0
            }
        }) ?? false
    }
}
