import Foundation
import GRDB
import Logging
import Synchronization

/// The app's SQLite store and the launch sequence that never traps.
///
/// Launch: open → quick integrity check (unless the store is the one the last session
/// closed sound, untouched since: ``CleanClose``) → on failure quarantine the damaged files →
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
    /// Whether the check of this launch's first acknowledged write is still to come, or its
    /// backup failed (see ``didWrite()``).
    private let firstWriteToCome = Mutex(true)

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
        if !health.isHealthy { logLaunch(health) }
        let store = AppStore(writer: writer, health: health, configuration: configuration)
        if store.isPersistent, !health.closedSoundLastTime {
            // A launch that worked is a good point to keep (unless the close before it
            // took a backup of this very state).
            _ = try? store.takeBackup()
        }
        return store
    }

    /// Counts an acknowledged write; takes a backup every `backupEveryWrites`, and at the
    /// first write of a launch when the newest backup holds no record: the user's first
    /// records are never only in the store. (`chaos hunt` found a set created, the power
    /// cut, the store emptied while the app was closed: no backup held the set, and the
    /// next launch started empty without a word.)
    public func didWrite() {
        let due = writesSinceBackup.withLock { count -> Bool in
            count += 1
            if count >= configuration.backupEveryWrites { count = 0; return true }
            return false
        }
        let first = firstWriteToCome.withLock { $0 }
        guard isPersistent else { return }
        if first { markHoldsData() }
        guard due || (first && backups.list().first.map { StorePeek.holdsRecords($0.url) } != true) else {
            firstWriteToCome.withLock { $0 = false }
            return
        }
        // A backup that failed (a full disk, an I/O error) is tried again at the next write.
        guard (try? takeBackup()) != nil else { return }
        writesSinceBackup.withLock { $0 = 0 }
        firstWriteToCome.withLock { $0 = false }
    }

    /// Keeps the mark that the user saved data (``DataMarker``), for a write that does
    /// not go through ``didWrite()`` (a bulk import).
    public func markHoldsData() {
        guard isPersistent, !DataMarker.exists(configuration) else { return }
        DataMarker.write(configuration)
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
            let folded = (try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }) != nil
            let closed = (try? pool.close()) != nil
            // The next launch may trust this store without reading it all (CleanClose).
            if folded && closed { CleanClose.record(configuration) }
        }
        if let queue = writer as? DatabaseQueue { try? queue.close() }
    }

    /// The numbered backups present, newest first.
    public var backupFiles: [URL] { backups.list().map(\.url) }
}

/// Not even an in-memory store could be made. The app shows its data-error screen.
public struct StoreUnavailableError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

extension AppStore {
    /// What a launch that needed recovery did, for diagnostics: the mode it settled on
    /// and what it moved, restored or salvaged (counts and file names, no user data).
    private static func logLaunch(_ health: StoreHealth, function: String = #function, line: UInt = #line) {
        let level: Logger.Level = switch health.severity {
        case .error: .error
        case .warning: .warning
        case .none: .notice
        }
        var metadata: Logger.Metadata = ["mode": "\(health.mode.rawValue)", "reason": "\(health.loadError ?? "")",
                                         "durationMs": "\(Int(health.launchDuration / .milliseconds(1)))"]
        if !health.quarantinedFiles.isEmpty { metadata["setAside"] = "\(health.quarantinedFiles.count) files" }
        if let backup = health.restoredBackup { metadata["restoredFrom"] = "\(backup)" }
        if health.salvagedRows > 0 { metadata["salvagedRows"] = "\(health.salvagedRows)" }
        // The launch's site, not this helper's.
        AppLog.store.log(level: level, "The store did not open normally; running \(health.mode.rawValue)", metadata: metadata,
                         function: function, line: line)
    }
}
