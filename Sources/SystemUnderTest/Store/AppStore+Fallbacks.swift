import Foundation
import GRDB

/// The stores a launch settles for when the normal one cannot be had: read-only, the
/// untouched store of a newer version, memory.
extension AppStore {
    static func openReadOnly(
        _ configuration: StoreConfiguration, because cause: (any Error)? = nil
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        do {
            let queue = try ReadOnlyStore.open(configuration.storeURL.path)
            if let problem = try queue.read({ StoreIntegrity.quickCheck($0) }) {
                try? queue.close()
                return try inMemory(reason: "read-only store is damaged: \(problem)")
            }
            // A store that never got its tables (the first launch failed) holds no data:
            // there is nothing to show read-only.
            if try !queue.read({ try AppSchema.migrator.hasCompletedMigrations($0) }) {
                try? queue.close()
                return try inMemory(reason: "store unavailable and holds no data yet: \(cause.map { String(describing: $0) } ?? "")")
            }
            let full = cause.map(StoreIntegrity.isStorageFull) ?? false
            var health = StoreHealth(
                mode: .readOnly, userMessage: full ? LaunchMessages.storageFull : LaunchMessages.readOnly, severity: .warning,
                loadError: cause.map { String(describing: $0) } ?? "store file is not writable")
            health.storageFull = full
            return (queue, health)
        } catch {
            return try inMemory(reason: "read-only store cannot be opened: \(error)")
        }
    }

    static func inMemory(reason: String) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let health = StoreHealth(mode: .inMemory, userMessage: LaunchMessages.inMemory, severity: .error, loadError: reason)
        do {
            let queue = try DatabaseQueue()
            try AppSchema.migrator.migrate(queue)
            return (queue, health)
        } catch {
            // Only reachable when SQLite cannot allocate memory: the caller shows its error screen.
            throw StoreUnavailableError(reason: "\(reason); in-memory store failed: \(error)")
        }
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
            (writer, health) = try inMemory(reason: "\(reason); it cannot be opened: \(error)")
        }
        health.newerSchema = true
        return (writer, health)
    }

    /// The permission bits are the signal (the app may run as root, which ignores them).
    static func hasWritePermission(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let permissions = attributes[.posixPermissions] as? NSNumber else { return true }
        return permissions.intValue & 0o222 != 0
    }
}
