import Foundation
import GRDB
import GRDBSQLite

/// The stores a launch settles for when the normal one cannot be had: read-only, the
/// untouched store of a newer version, memory. ``AppStore`` falls back on them.
enum StoreFallbacks {
    static func openReadOnly(
        _ configuration: StoreConfiguration, because cause: (any Error)? = nil
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        do {
            let queue = try ReadOnlyStore.open(configuration.storeURL.path)
            if let problem = try queue.read({ StoreIntegrity.quickCheck($0) }) {
                try? queue.close()
                return try inMemory(reason: "read-only store is damaged: \(problem)", storeUntouched: true)
            }
            let full = cause.map(StoreIntegrity.isStorageFull) ?? false
            var reader: any DatabaseWriter = queue
            var loadError = cause.map { String(describing: $0) } ?? "store file is not writable"
            if try !queue.read({ try AppSchema.migrator.hasCompletedMigrations($0) }) {
                let applied = try queue.read { try AppSchema.migrator.appliedIdentifiers($0) }
                // A store that never got its tables (the first launch failed) holds no data:
                // there is nothing to show read-only.
                guard !applied.isEmpty else {
                    try? queue.close()
                    return try inMemory(reason: "store unavailable and holds no data yet: \(cause.map { String(describing: $0) } ?? "")",
                                        storeUntouched: true)
                }
                // An older version's store that cannot be migrated yet (a full disk, a
                // store it may not write): its data is shown from a migrated copy in
                // memory, as read-only as the store. The next launch migrates it.
                reader = try migratedCopy(of: queue)
                try? queue.close()
                loadError += "; the store of an older version (\(applied.sorted().joined(separator: ", "))) is shown from a migrated copy"
            }
            var health = StoreHealth(
                mode: .readOnly, userMessage: full ? LaunchMessages.storageFull : LaunchMessages.readOnly, severity: .warning,
                loadError: loadError)
            health.storageFull = full
            return (reader, health)
        } catch {
            return try inMemory(reason: "read-only store cannot be opened: \(error)", storeUntouched: true)
        }
    }

    /// `storeUntouched`: the store was left where it was (nothing set aside), and the
    /// message says so rather than that it was set aside.
    static func inMemory(reason: String, storeUntouched: Bool = false) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let message = storeUntouched ? LaunchMessages.inMemoryStoreUntouched : LaunchMessages.inMemory
        let health = StoreHealth(mode: .inMemory, userMessage: message, severity: .error, loadError: reason)
        do {
            let queue = try DatabaseQueue()
            try AppSchema.migrator.migrate(queue)
            return (queue, health)
        } catch {
            // Only reachable when SQLite cannot allocate memory: the caller shows its error screen.
            throw StoreUnavailableError(reason: "\(reason); in-memory store failed: \(error)")
        }
    }

    /// A copy of `store` in memory, migrated to this version, that refuses writes
    /// (deserialized read-only: a write fails as it would on the store itself): what the
    /// user sees of an older store that cannot be migrated in place. Nothing they do to
    /// it can be lost, because nothing is taken. (`PRAGMA query_only` would not hold:
    /// GRDB turns it off again after each read.)
    static func migratedCopy(of store: DatabaseQueue) throws -> DatabaseQueue {
        let memory = try DatabaseQueue()
        try store.backup(to: memory)
        try AppSchema.migrator.migrate(memory)
        var size: sqlite3_int64 = 0
        let image = memory.inDatabase { db in sqlite3_serialize(db.sqliteConnection, "main", &size, 0) }
        try? memory.close()
        guard let image, size >= 100 else { throw StoreUnavailableError(reason: "cannot copy the migrated store") }
        // A WAL store's header says so (bytes 18 and 19 are 2): an image in memory has no
        // WAL, and reads it as a rollback-journal database (1) or not at all.
        image[18] = 1
        image[19] = 1
        let copy = try DatabaseQueue()
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY)
        let code = copy.inDatabase { db in
            let code = sqlite3_deserialize(db.sqliteConnection, "main", image, size, size, flags)
            db.clearSchemaCache()
            return code
        }
        guard code == SQLITE_OK else { throw StoreUnavailableError(reason: "cannot open the migrated copy (SQLite code \(code))") }
        return copy
    }

    /// A store from a newer version is left exactly as it is — not migrated, not
    /// quarantined, not backed up — and opened read-only; the app shows its
    /// data-error screen, and an update of the app opens it again.
    static func openNewerVersion(
        _ configuration: StoreConfiguration, unknownMigrations: [String]
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let reason = "the store was written by a newer version of the app (unknown migrations: \(unknownMigrations.joined(separator: ", ")))"
        var (writer, health): (any DatabaseWriter, StoreHealth)
        do {
            writer = try ReadOnlyStore.open(configuration.storeURL.path)
            health = StoreHealth(mode: .readOnly, userMessage: LaunchMessages.newerSchema, severity: .error, loadError: reason)
        } catch {
            (writer, health) = try inMemory(reason: "\(reason); it cannot be opened: \(error)", storeUntouched: true)
        }
        health.newerSchema = true
        return (writer, health)
    }

    /// Whether the store may be written: the system is asked first (`access(W_OK)`: a
    /// read-only file system, or the bits for a user), then the permission bits, which
    /// are the signal for an app run as root (whom they do not stop).
    static func hasWritePermission(_ path: String) -> Bool {
        let systemAllows = access(path, W_OK) == 0 || errno == ENOENT
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let permissions = attributes[.posixPermissions] as? NSNumber else { return systemAllows }
        return systemAllows && permissions.intValue & 0o222 != 0
    }
}
