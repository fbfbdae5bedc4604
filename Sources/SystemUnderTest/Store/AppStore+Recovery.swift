import Foundation
import GRDB

/// The launch sequence that never traps: open and check the store; on damage, quarantine
/// it and restore the newest good backup (salvaging readable rows it lacks), or salvage
/// into a fresh store, or run on memory. A failure of the device is not damage.
extension AppStore {
    static func openOrRecover(_ configuration: StoreConfiguration) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        } catch {
            return try StoreFallbacks.inMemory(reason: "cannot create data folder: \(error)", storeUntouched: true)
        }
        // Read (and used up) before anything opens the store.
        let closedSound = CleanClose.consume(configuration)
        let backups = StoreBackups(directory: configuration.backupDirectory, kept: configuration.backupsKept)
        let storePath = configuration.storeURL.path

        // Gone, or holding no table: no user action leaves a store so (deleting every
        // record leaves its tables).
        var storeBlank = true
        if !fm.fileExists(atPath: storePath) {
            // No store: a first launch, or the file vanished. Restore what a backup holds.
            if let backup = backups.newestGood() {
                return try restore(from: backup, configuration: configuration, damagedStore: nil,
                               reason: "store file missing", quarantined: [])
            }
        } else {
            let peek = StorePeek.of(storePath)
            storeBlank = peek == .blank
            switch peek {
            case let .newer(unknown):
                return try StoreFallbacks.openNewerVersion(configuration, unknownMigrations: unknown)
            case .blank where backups.newestGood().map(StorePeek.holdsRecords) == true:
                // No user action empties a store to nothing while its backup holds records.
                return try recover(configuration, reason: "the store lost its content: it holds no tables, its backup holds the user's records")
            default:
                if !StoreFallbacks.hasWritePermission(storePath) { return try StoreFallbacks.openReadOnly(configuration) }
            }
        }

        // The user saved data here, and neither the store nor a backup holds any now: say so.
        let lost = storeBlank && DataMarker.exists(configuration)
            && backups.list().first.map { StorePeek.holdsRecords($0.url) } != true
        var (writer, health) = try openWithOneRetry(configuration, closedSound: closedSound)
        if lost, health.mode == .persistent, health.userMessage == nil {
            AppLog.store.error("The user's data is gone: the store and every backup hold no record")
            health.userMessage = LaunchMessages.dataLost
            health.severity = .warning
            health.loadError = "the store and its backups hold no record, though the user saved data"
        }
        return (writer, health)
    }

    /// Opens and checks the store. A failure of the environment (a full disk, an I/O
    /// error) may pass: it tries once more before settling for less.
    private static func openWithOneRetry(_ configuration: StoreConfiguration,
                                         closedSound: Bool) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let pool = try openPersistent(configuration)
                // The full check reads every page: not needed for the store last closed sound.
                switch closedSound ? .sound : verify(pool) {
                case .sound:
                    return (pool, .persistent(closedSoundLastTime: closedSound))
                case let .damaged(problem):
                    try? pool.close()
                    return try recover(configuration, reason: problem)
                case let .unreadable(error):
                    try? pool.close()
                    throw error
                }
            } catch where StoreIntegrity.isLockedElsewhere(error) {
                // Another process holds the store's lock, and kept it through the busy
                // timeout: waiting again, or opening it read-only (SQLite retries a WAL
                // read for about 10 s before it gives up), would hold the launch for
                // tens of seconds (found by `chaos hunt`: 40 s). Run on memory, the
                // store untouched, and say so; the next launch opens it.
                return try StoreFallbacks.inMemory(reason: "the store is locked by another process: \(error)", storeUntouched: true)
            } catch where !StoreIntegrity.isDamage(error) {
                if attempt < 2 { continue }
                // The file is not damaged, so it is not quarantined. Show what can be
                // read; change nothing.
                return try StoreFallbacks.openReadOnly(configuration, because: error)
            } catch {
                return try recover(configuration, reason: String(describing: error))
            }
        }
    }

    /// How long a statement waits for a lock another process holds (GRDB's busy timeout).
    static let launchBusyTimeout: TimeInterval = 1

    /// Opens the WAL pool, migrates if needed, then sets the durability. GRDB's pool
    /// sets `synchronous=NORMAL` after `prepareDatabase`, so it is set again here. A
    /// store whose schema is current is not written at launch (a full disk must not
    /// stop the app from opening it).
    /// `waitsItsTurn`: whether a statement that meets another process's lock waits for it
    /// (up to ``launchBusyTimeout``) or fails at once (GRDB's default, which the legacy
    /// code kept).
    static func openPersistent(_ configuration: StoreConfiguration, waitsItsTurn: Bool = true) throws -> DatabasePool {
        var grdbConfiguration = Configuration()
        // Its widget opens this store too: a lock held longer than this is a stuck
        // process's, and a launch must not wait on it statement after statement.
        if waitsItsTurn { grdbConfiguration.busyMode = .timeout(launchBusyTimeout) }
        // The store is in a shared container: the app may suspend it (StoreSuspension).
        grdbConfiguration.observesSuspensionNotifications = true
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

    enum Verification {
        case sound
        case damaged(String)
        /// The check itself could not read the file (an I/O error): not proof of damage.
        case unreadable(any Error)
    }

    /// Stores up to this many pages (16 MiB at 4 KiB) get SQLite's full check, which also
    /// compares each index with its table; larger ones the quick check, which reads every
    /// page but not that (`chaos hunt` found flipped bytes in an index that the quick check
    /// passed, the app then using a store whose `integrity_check` fails).
    static let fullCheckMaxPages = 4_096

    static func verify(_ pool: DatabasePool) -> Verification {
        do {
            let lines = try pool.read { db -> [String] in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                let check = pages <= fullCheckMaxPages ? "integrity_check(5)" : "quick_check(5)"
                return try String.fetchAll(db, sql: "PRAGMA \(check)")
            }
            return lines == ["ok"] ? .sound : .damaged(lines.prefix(5).joined(separator: "; "))
        } catch where !StoreIntegrity.isDamage(error) {
            return .unreadable(error)
        } catch {
            return .damaged(String(describing: error))
        }
    }

    static func recover(_ configuration: StoreConfiguration, reason: String) throws(StoreUnavailableError) -> (any DatabaseWriter, StoreHealth) {
        AppLog.store.error("The store is damaged or cannot be read: setting it aside", metadata: ["reason": "\(reason)"])
        let quarantine = Quarantine(directory: configuration.quarantineDirectory)
        let moved: [URL]
        do {
            moved = try quarantine.isolate([configuration.storeURL, configuration.walURL, configuration.shmURL])
        } catch {
            // The damaged files cannot be moved: never overwrite them, run on memory.
            return try StoreFallbacks.inMemory(reason: "\(reason); quarantine failed: \(error)", storeUntouched: true)
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
        var (memory, health) = try StoreFallbacks.inMemory(reason: reason, storeUntouched: moved.isEmpty)
        health.quarantinedFiles = moved.map(\.path)
        return (memory, health)
    }

    static func restore(
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
            var (memory, health) = try StoreFallbacks.inMemory(reason: "\(reason); restore failed: \(error)", storeUntouched: quarantined.isEmpty)
            health.quarantinedFiles = quarantined.map(\.path)
            return (memory, health)
        }
    }
}
