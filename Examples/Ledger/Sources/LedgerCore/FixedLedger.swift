import Foundation
import Logging
import SQLiteNIO

/// The ledger's start-up after `chaos check`:
///
/// - commits are durable (`journal_mode = WAL`, `synchronous = FULL`);
/// - a store SQLite calls damaged (not a database, corrupt, failing its check) is moved
///   aside, never deleted, and the copy taken at the last clean exit comes back with a
///   notice; so does a store that vanished or was emptied while the copy holds entries;
/// - a failing device (an I/O error, a full disk) is not damage: nothing is moved, the
///   ledger is unavailable for now and says so, the next launch tries again; a store that
///   looks damaged is opened a second time before it is called damaged;
/// - every connection is closed on every path (sqlite-nio asserts on one dropped open);
/// - a failed save is reported, never swallowed;
/// - what went wrong is logged (swift-log), never an amount;
/// - the copy is kept after every save, and at a clean exit; a save whose copy failed
///   says so.
public final class FixedLedger: Ledger {
    private static let logger = Logger(label: "ledger.store")
    private let connection: SQLiteConnection
    private let path: String
    public let notice: String?

    private init(_ connection: SQLiteConnection, path: String, notice: String?) {
        self.connection = connection
        self.path = path
        self.notice = notice
    }

    public static func open(at path: String) async throws(LedgerProblem) -> FixedLedger {
        let copy = path + ".last-good"
        do {
            let connection = try await openTwice(path)
            let empty = try await LedgerSchema.entries(on: connection).isEmpty
            // A copy that cannot be read is no proof the ledger was empty (`chaos hunt`: the
            // copy damaged, the store deleted, and the entries gone without a word).
            let lost = empty ? await entries(in: copy) != 0 : false
            guard lost else { return FixedLedger(connection, path: path, notice: nil) }
            try? await connection.close()
            return try await restore(path, from: copy)
        } catch let error as LedgerProblem {
            throw error
        } catch where isDamage(error) {
            logger.error("The ledger is damaged: restoring the last good copy", metadata: ["error": "\(error)"])
            return try await restore(path, from: copy)
        } catch {
            logger.error("The ledger cannot be opened", metadata: ["error": "\(error)"])
            throw LedgerProblem(message: "Your ledger can't be opened right now. Please try again later.")
        }
    }

    /// ``openChecked(_:)``, once more when the store looks damaged: a read the device cut
    /// short looks like damage once, and reads whole the next time (`chaos hunt`: two
    /// short reads set aside a good ledger and its good copy, and started an empty one).
    private static func openTwice(_ path: String) async throws -> SQLiteConnection {
        do { return try await openChecked(path) } catch where isDamage(error) { return try await openChecked(path) }
    }

    /// Opens the store and checks it; a connection is closed on every failure.
    private static func openChecked(_ path: String) async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA synchronous = FULL")
            let check = try await connection.query("PRAGMA quick_check").first?.column("quick_check")?.string
            guard check == "ok" else { throw DamagedStore() }
            _ = try await connection.query(LedgerSchema.create)
            return connection
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func restore(_ path: String, from copy: String) async throws(LedgerProblem) -> FixedLedger {
        let aside = path + ".damaged-\(UUID().uuidString.prefix(8))"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix) }
        if (try? FileManager.default.copyItem(atPath: copy, toPath: path)) != nil, let connection = try? await openTwice(path) {
            return FixedLedger(connection, path: path, notice: "Your ledger was damaged, so it was set aside and your entries were restored from the last good copy.")
        }
        // The copy will not open either: set aside too, and a new ledger started, told.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try? FileManager.default.moveItem(atPath: copy, toPath: aside + ".last-good")
        guard let connection = try? await openChecked(path) else {
            throw LedgerProblem(message: "Your ledger can't be opened right now. Please try again later.")
        }
        return FixedLedger(connection, path: path, notice: "Your ledger could not be opened, so it was set aside and a new one was started.")
    }

    /// The entries the copy holds: 0 when there is none, nil when it cannot be read.
    private static func entries(in copy: String) async -> Int? {
        guard FileManager.default.fileExists(atPath: copy) else { return 0 }
        guard let connection = try? await SQLiteConnection.open(storage: .file(path: copy)) else { return nil }
        let count = try? await LedgerSchema.entries(on: connection).count
        try? await connection.close()
        return count
    }

    public func add(amount: Int) async throws -> Entry {
        let entry: Entry
        do {
            entry = try await LedgerSchema.insert(amount, on: connection)
        } catch {
            throw LedgerProblem(message: "Your entry could not be saved. Please try again.")
        }
        // The copy follows every save, not only a clean exit: `chaos hunt` found an entry
        // saved, the app killed, the store deleted while it was closed — and no copy held
        // the entry. A copy that cannot be made is said: the entry is saved, but nothing
        // else holds it (a hunt found files that would not open, then the store deleted).
        guard await keepCopy() else {
            throw LedgerProblem(message: "Your entry was saved, but the ledger's safety copy could not be made. "
                + "Please check your device's storage.")
        }
        return entry
    }

    public func all() async throws -> [Entry] {
        do {
            return try await LedgerSchema.entries(on: connection)
        } catch {
            throw LedgerProblem(message: "Your ledger could not be loaded. Please try again.")
        }
    }

    /// A clean exit keeps a copy too.
    public func close() async {
        await keepCopy()
        try? await connection.close()
    }

    /// The copy (`VACUUM INTO`, written aside, synced, renamed into place, the folder
    /// synced): a failed copy leaves the last good one. False when it failed.
    @discardableResult
    private func keepCopy() async -> Bool {
        let copy = path + ".last-good"
        let staging = copy + ".new"
        try? FileManager.default.removeItem(atPath: staging)
        guard (try? await connection.query("VACUUM INTO ?", [.text(staging)])) != nil, Self.sync(staging),
              rename(staging, copy) == 0 else { return false }
        return Self.sync((path as NSString).deletingLastPathComponent)
    }

    /// fsync of a file or a folder.
    private static func sync(_ path: String) -> Bool {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        return fsync(fd) == 0
    }
}

/// The store failed its check.
private struct DamagedStore: Error {}

/// What SQLite (or the check) says is damage, not a failing device.
private func isDamage(_ error: any Error) -> Bool {
    if error is DamagedStore { return true }
    guard let error = error as? SQLiteError else { return false }
    switch error.reason {
    case .corrupt, .corruptIndex, .corruptVirtualTable, .corruptSequenceSchema, .notADatabase: return true
    default: return false
    }
}
