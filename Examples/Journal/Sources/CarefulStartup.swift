import Foundation
import GRDB

/// The start-up code after `chaos check`:
///
/// - commits are durable: `synchronous = FULL` once the pool exists (GRDB's pool sets
///   NORMAL, which loses the last commits in a power cut);
/// - a store SQLite calls damaged is moved aside, never deleted, and the copy taken after
///   the last save comes back, with a notice; so does a store that vanished or was
///   emptied while the copy holds entries (`chaos hunt` found the copy, taken only at a
///   clean exit, missing after a power cut: an entry saved, the power cut, the store
///   deleted, and the entry gone without a word);
/// - a store that looks damaged is opened a second time before it is called damaged;
/// - a failing device (an I/O error, a full disk, a file it may not write) is not damage:
///   nothing is moved, the journal is shown read-only as it is (`chaos hunt` found the
///   app answering no read at all on a store it could not write), the next launch tries
///   again;
/// - the store is shared with the journal's widget: a statement waits up to 5 s for the
///   widget's lock rather than fail at once (`check-peer-holds-write-on-save`), and the
///   pool hears the app's suspension (``JournalSuspension``): a save under way when the
///   app is suspended is rolled back and told, never left holding the lock
///   (`check-suspended-while-saving`: iOS kills that app, 0xdead10cc).
enum CarefulStartup {
    struct Opened {
        var database: AppDatabase?
        var notice: String?
        /// Shown, not changed: a write is refused with the notice.
        var readOnly = false
    }

    static func open(at path: String) -> Opened {
        let copy = path + ".last-good"
        do {
            let database = try openTwice(path)
            // A copy that cannot be read is no proof the journal was empty (`chaos hunt`:
            // the copy damaged, then the store deleted, and the entry gone without a word).
            let lost = try database.writer.read { try Entry.fetchCount($0) } == 0 && entries(in: copy) != 0
            return lost ? restore(path, from: copy) : Opened(database: database)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return restore(path, from: copy)
        } catch {
            return readOnly(path)
        }
    }

    /// The store as it is, read-only: a store the device will not let the app write (its
    /// file read-only, a full disk at the first launch). One that never got its tables
    /// holds no entries: an empty journal, kept in memory, that takes no writes either.
    private static func readOnly(_ path: String) -> Opened {
        let notice = "Your journal can be read but not changed right now. Please try again later."
        var configuration = Configuration()
        configuration.readonly = true
        if let pool = try? DatabasePool(path: path, configuration: configuration),
           (try? pool.read { try AppDatabase.migrator.hasCompletedMigrations($0) }) == true,
           let database = try? AppDatabase(pool, migrate: false) {
            return Opened(database: database, notice: notice, readOnly: true)
        }
        if let database = try? AppDatabase(DatabaseQueue()) {
            return Opened(database: database, notice: notice, readOnly: true)
        }
        return Opened(notice: "Your journal can't be opened right now. Please try again later.")
    }

    /// Takes the copy the next launch falls back on; call it after each save and at a
    /// clean exit. False when it failed: a save whose copy failed says so, since nothing
    /// but the store then holds the entry (`chaos hunt`: the copy failed, the store was
    /// emptied, and the journal started empty without a word).
    @discardableResult
    static func keepCopy(of database: AppDatabase, at path: String) -> Bool {
        guard let copy = try? DatabaseQueue(path: path + ".last-good") else { return false }
        return (try? database.writer.backup(to: copy)) != nil
    }

    /// ``openChecked(_:)``, once more when the store looks damaged: a read the device cut
    /// short looks like damage once, and reads whole the next time (`chaos hunt`: two
    /// short reads set aside the ledger example's good store and copy; this journal opened the same way).
    private static func openTwice(_ path: String) throws -> AppDatabase {
        do { return try openChecked(path) } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return try openChecked(path)
        }
    }

    private static func openChecked(_ path: String) throws -> AppDatabase {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.observesSuspensionNotifications = true
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.barrierWriteWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        guard try pool.read({ try String.fetchOne($0, sql: "PRAGMA quick_check") }) == "ok" else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "quick_check failed")
        }
        return try AppDatabase(pool)
    }

    private static func restore(_ path: String, from copy: String) -> Opened {
        let aside = path + ".damaged-\(UUID().uuidString.prefix(8))"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix) }
        if (try? FileManager.default.copyItem(atPath: copy, toPath: path)) != nil, let database = try? openTwice(path) {
            return Opened(database: database, notice: "Your journal was damaged, so it was set aside and your entries were restored from the last good copy.")
        }
        // The copy will not open either: it is set aside too, and a new journal started,
        // told — never "try again later" at every launch for ever.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try? FileManager.default.moveItem(atPath: copy, toPath: aside + ".last-good")
        guard let database = try? openChecked(path) else {
            return Opened(notice: "Your journal can't be opened right now. Please try again later.")
        }
        return Opened(database: database, notice: "Your journal could not be opened, so it was set aside and a new one was started.")
    }

    /// The entries the copy holds: 0 when there is none, nil when it cannot be read.
    private static func entries(in copy: String) -> Int? {
        guard FileManager.default.fileExists(atPath: copy) else { return 0 }
        return try? DatabaseQueue(path: copy).read { try Entry.fetchCount($0) }
    }
}
