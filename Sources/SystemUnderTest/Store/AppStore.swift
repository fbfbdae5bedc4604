import Foundation
import GRDB
import Synchronization

/// The app's SQLite store and the launch sequence that never traps.
///
/// Launch: open → quick integrity check → on failure quarantine the damaged files →
/// restore the newest good backup → salvage readable rows the backup lacks → else an
/// in-memory store with a warning. A store whose file has lost its write permission
/// opens read-only. Every branch ends with a usable store and a ``StoreHealth``.
///
/// Related SQLite documentation: <https://www.sqlite.org/wal.html>,
/// <https://www.sqlite.org/pragma.html#pragma_synchronous>
public final class AppStore: Sendable {
    /// The connection(s): a WAL `DatabasePool` when persistent, a queue otherwise.
    public let writer: any DatabaseWriter
    public let health: StoreHealth
    public let configuration: StoreConfiguration

    private let backups: StoreBackups
    private let writesSinceBackup = Mutex(0)

    private init(writer: any DatabaseWriter, health: StoreHealth, configuration: StoreConfiguration) {
        self.writer = writer
        self.health = health
        self.configuration = configuration
        self.backups = StoreBackups(directory: configuration.backupDirectory, kept: configuration.backupsKept)
    }

    /// The legacy launch's store: no check, no recovery, reported as persistent.
    static func legacy(writer: any DatabaseWriter, configuration: StoreConfiguration) -> AppStore {
        AppStore(writer: writer, health: StoreHealth(mode: .persistent), configuration: configuration)
    }

    /// True when writes reach a file on disk.
    public var isPersistent: Bool {
        health.mode != .inMemory && health.mode != .readOnly
    }

    /// Opens the store, recovering as needed. Never traps. Throws only when not even an
    /// in-memory store can be made (SQLite cannot allocate), for the app's error screen.
    public static func launch(_ configuration: StoreConfiguration) throws(StoreUnavailableError) -> AppStore {
        let clock = ContinuousClock()
        let start = clock.now
        var (writer, health) = try openOrRecover(configuration)
        health.launchDuration = clock.now - start
        let store = AppStore(writer: writer, health: health, configuration: configuration)
        if store.isPersistent {
            // A launch that worked is a good point to keep.
            _ = try? store.takeBackup()
        }
        return store
    }

    /// Counts an acknowledged write; takes a backup every `backupEveryWrites`.
    public func didWrite() {
        let due = writesSinceBackup.withLock { count -> Bool in
            count += 1
            if count >= configuration.backupEveryWrites { count = 0; return true }
            return false
        }
        if due, isPersistent { _ = try? takeBackup() }
    }

    /// Takes a numbered backup now. Returns nil when the store is not on disk.
    @discardableResult
    public func takeBackup() throws -> URL? {
        guard isPersistent else { return nil }
        return try backups.take(from: writer)
    }

    /// Graceful stop: a last backup, then the connections close.
    public func close() {
        if isPersistent { _ = try? takeBackup() }
        if let pool = writer as? DatabasePool {
            // Fold the WAL into the main file first: GRDB's last connection to close is a
            // read-only reader, which cannot checkpoint, so the WAL would otherwise stay.
            _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try? pool.close()
        }
        if let queue = writer as? DatabaseQueue { try? queue.close() }
    }

    /// The numbered backups present, newest first.
    public var backupFiles: [URL] { backups.list().map(\.url) }

    // MARK: - The launch sequence

    private static func openOrRecover(_ configuration: StoreConfiguration) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        } catch {
            return try inMemory(reason: "cannot create data folder: \(error)")
        }
        let backups = StoreBackups(directory: configuration.backupDirectory, kept: configuration.backupsKept)
        let storePath = configuration.storeURL.path

        if !fm.fileExists(atPath: storePath) {
            // No store: a first launch, or the file vanished. Restore what a backup holds.
            if let backup = backups.newestGood() {
                return try restore(from: backup, configuration: configuration, damagedStore: nil,
                               reason: "store file missing", quarantined: [])
            }
        } else if let unknown = newerMigrations(storePath), !unknown.isEmpty {
            return try openNewerVersion(configuration, unknownMigrations: unknown)
        } else if !hasWritePermission(storePath) {
            return try openReadOnly(configuration)
        }

        // A failure of the environment (a full disk, an I/O error, a lock held
        // elsewhere) may pass: try once more before settling for less.
        var attempt = 0
        while true {
            attempt += 1
            do {
                let pool = try openPersistent(configuration)
                switch verify(pool) {
                case .sound:
                    return (pool, StoreHealth(mode: .persistent))
                case let .damaged(problem):
                    try? pool.close()
                    return try recover(configuration, reason: problem)
                case let .unreadable(error):
                    try? pool.close()
                    throw error
                }
            } catch where !StoreIntegrity.isDamage(error) {
                if attempt < 2 { continue }
                // The file is not damaged, so it is not quarantined. Show what can be
                // read; change nothing.
                return try openReadOnly(configuration, because: error)
            } catch {
                return try recover(configuration, reason: String(describing: error))
            }
        }
    }

    /// Opens the WAL pool, migrates if needed, then sets the durability. GRDB's pool
    /// sets `synchronous=NORMAL` after `prepareDatabase`, so it is set again here. A
    /// store whose schema is current is not written at launch (a full disk must not
    /// stop the app from opening it).
    static func openPersistent(_ configuration: StoreConfiguration) throws -> DatabasePool {
        var grdbConfiguration = Configuration()
        grdbConfiguration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: configuration.storeURL.path, configuration: grdbConfiguration)
        do {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(configuration.durability.rawValue.uppercased())")
            }
            let migrator = AppSchema.migrator
            if try !pool.read({ try migrator.hasCompletedMigrations($0) }) {
                try migrator.migrate(pool)
            }
        } catch {
            try? pool.close()
            throw error
        }
        return pool
    }

    private enum Verification {
        case sound
        case damaged(String)
        /// The check itself could not read the file (an I/O error): not proof of damage.
        case unreadable(any Error)
    }

    private static func verify(_ pool: DatabasePool) -> Verification {
        do {
            let lines = try pool.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            return lines == ["ok"] ? .sound : .damaged(lines.prefix(5).joined(separator: "; "))
        } catch where !StoreIntegrity.isDamage(error) {
            return .unreadable(error)
        } catch {
            return .damaged(String(describing: error))
        }
    }

    private static func recover(_ configuration: StoreConfiguration, reason: String) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let quarantine = Quarantine(directory: configuration.quarantineDirectory)
        let moved: [URL]
        do {
            moved = try quarantine.isolate([configuration.storeURL, configuration.walURL, configuration.shmURL])
        } catch {
            // The damaged files cannot be moved: never overwrite them, run on memory.
            return try inMemory(reason: "\(reason); quarantine failed: \(error)")
        }
        let damaged = moved.first { $0.lastPathComponent == configuration.fileName }
        let backups = StoreBackups(directory: configuration.backupDirectory, kept: configuration.backupsKept)
        if let backup = backups.newestGood() {
            return try restore(from: backup, configuration: configuration, damagedStore: damaged,
                           reason: reason, quarantined: moved)
        }
        // No backup: start a fresh store and keep whatever can still be read.
        if let damaged, let pool = try? openPersistent(configuration) {
            let salvaged = Salvage.copyReadableRows(from: damaged.path, into: pool)
            if salvaged > 0 {
                return (pool, StoreHealth(
                    mode: .salvaged, userMessage: LaunchMessages.salvaged, severity: .warning,
                    loadError: reason, quarantinedFiles: moved.map(\.path), salvagedRows: salvaged))
            }
            try? pool.close()
            // Leave no empty store behind: the next launch should try again from scratch.
            for url in [configuration.storeURL, configuration.walURL, configuration.shmURL] {
                try? FileManager.default.removeItem(at: url)
            }
        }
        var (memory, health) = try inMemory(reason: reason)
        health.quarantinedFiles = moved.map(\.path)
        return (memory, health)
    }

    private static func restore(
        from backup: URL, configuration: StoreConfiguration, damagedStore: URL?,
        reason: String, quarantined: [URL]
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let fm = FileManager.default
        let staging = configuration.directory.appendingPathComponent(configuration.fileName + ".restoring")
        do {
            try? fm.removeItem(at: staging)
            try fm.copyItem(at: backup, to: staging)
            guard rename(staging.path, configuration.storeURL.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: configuration.storeURL.path])
            }
            let pool = try openPersistent(configuration)
            var salvaged = 0
            if let damagedStore {
                salvaged = Salvage.copyReadableRows(from: damagedStore.path, into: pool)
            }
            let health = StoreHealth(
                mode: salvaged > 0 ? .salvaged : .restoredFromBackup,
                userMessage: salvaged > 0 ? LaunchMessages.salvaged : LaunchMessages.restored,
                severity: .warning,
                loadError: reason,
                quarantinedFiles: quarantined.map(\.path),
                restoredBackup: backup.lastPathComponent,
                salvagedRows: salvaged)
            return (pool, health)
        } catch {
            try? fm.removeItem(at: staging)
            var (memory, health) = try inMemory(reason: "\(reason); restore failed: \(error)")
            health.quarantinedFiles = quarantined.map(\.path)
            return (memory, health)
        }
    }

    private static func openReadOnly(
        _ configuration: StoreConfiguration, because cause: (any Error)? = nil
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        var grdbConfiguration = Configuration()
        grdbConfiguration.readonly = true
        do {
            let queue = try DatabaseQueue(path: configuration.storeURL.path, configuration: grdbConfiguration)
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

    private static func inMemory(reason: String) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
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

    /// The migrations the store lists that this version does not know (a newer version
    /// of the app wrote it), by a read-only peek that writes nothing; nil when the peek
    /// fails (damage is the normal path's business).
    private static func newerMigrations(_ path: String) -> [String]? {
        var grdbConfiguration = Configuration()
        grdbConfiguration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: grdbConfiguration) else { return nil }
        defer { try? queue.close() }
        let known = Set(AppSchema.migrator.migrations)
        return try? queue.read { try AppSchema.migrator.appliedIdentifiers($0).subtracting(known).sorted() }
    }

    /// A store from a newer version is left exactly as it is — not migrated, not
    /// quarantined, not backed up — and opened read-only; the app shows its
    /// data-error screen, and an update of the app opens it again.
    private static func openNewerVersion(
        _ configuration: StoreConfiguration, unknownMigrations: [String]
    ) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let reason = "the store was written by a newer version of the app (unknown migrations: \(unknownMigrations.joined(separator: ", ")))"
        var grdbConfiguration = Configuration()
        grdbConfiguration.readonly = true
        var (writer, health): (any DatabaseWriter, StoreHealth)
        do {
            writer = try DatabaseQueue(path: configuration.storeURL.path, configuration: grdbConfiguration)
            health = StoreHealth(mode: .readOnly, userMessage: LaunchMessages.newerSchema, severity: .error, loadError: reason)
        } catch {
            (writer, health) = try inMemory(reason: "\(reason); it cannot be opened: \(error)")
        }
        health.newerSchema = true
        return (writer, health)
    }

    /// The permission bits are the signal (the app may run as root, which ignores them).
    private static func hasWritePermission(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let permissions = attributes[.posixPermissions] as? NSNumber else { return true }
        return permissions.intValue & 0o222 != 0
    }
}

/// Not even an in-memory store could be made. The app shows its data-error screen.
public struct StoreUnavailableError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
