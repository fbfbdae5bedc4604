import CChaosVFS
import CSQLite
import Foundation
import Synchronization
import Testing

@testable import Chaos
@testable import ChaosTarget

/// The "chaos" VFS shim (CChaosVFS) and its Swift wrapper.
///
/// Registration and the hook are process-global and other suites may run in
/// parallel in this process, so these tests are serialized, every hook only
/// ever fails files under the test's own temp directory, and every test clears
/// the hook before it returns. Every other test that arms the VFS (storage fault
/// rules, power loss) is a suite nested in this one (`Tests/ChaosTests/VFS/`), so
/// that they are serialized with these and with each other.
@Suite(.serialized)
struct ChaosVFSTests {

    // MARK: - Tests

    @Test func roundTripThroughTheShimInWALMode() throws {
        try SQLiteFaultVFS.register()
        let dir = try TempDir()
        let before = Counters.now()
        let db = try Connection(path: dir.path + "/test.sqlite")
        defer { db.close() }

        #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
        try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT NOT NULL)")

        try db.exec("BEGIN")
        for i in 1...1000 { try db.exec("INSERT INTO t(id, value) VALUES (\(i), 'row \(i)')") }
        try db.exec("COMMIT")
        for i in 1001...1100 { try db.exec("INSERT INTO t(id, value) VALUES (\(i), 'row \(i)')") }

        #expect(try db.int("SELECT count(*) FROM t") == 1100)
        #expect(try db.int("SELECT sum(id) FROM t") == 1100 * 1101 / 2)
        #expect(try db.string("SELECT value FROM t WHERE id = 1050") == "row 1050")

        let name = SQLiteFaultVFS.vfsName(ofConnection: db.handle)
        #expect(name?.hasPrefix(SQLiteFaultVFS.name) == true, "vfs name: \(name ?? "nil")")
        #expect(name == "chaos/unix")

        let after = Counters.now()
        #expect(after.opens > before.opens)
        #expect(after.reads > before.reads)
        #expect(after.writes > before.writes)
        #expect(after.syncs > before.syncs)

        #expect(try db.string("PRAGMA integrity_check") == "ok")
    }

    @Test func registerIsIdempotentAndTheShimIsTheDefault() throws {
        try SQLiteFaultVFS.register()
        try SQLiteFaultVFS.register(makeDefault: false)
        try SQLiteFaultVFS.register()
        #expect(chaos_vfs_register(1) == SQLITE_OK)
        let vfs = try #require(sqlite3_vfs_find(nil))
        #expect(String(cString: vfs.pointee.zName) == SQLiteFaultVFS.name)
        #expect(sqlite3_vfs_find(SQLiteFaultVFS.name) == vfs)
        #expect(chaos_vfs_get() == UnsafeMutableRawPointer(vfs))
    }

    @Test func openingInAMissingDirectoryFailsCleanly() throws {
        try SQLiteFaultVFS.register()
        let dir = try TempDir()
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(
            dir.path + "/no/such/dir/test.sqlite", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        defer { sqlite3_close(handle) }
        #expect(rc == SQLITE_CANTOPEN)
        #expect(handle.map { sqlite3_errcode($0) } == SQLITE_CANTOPEN)
    }

    @Test func theHookSeesEachFileKindWithItsPath() throws {
        try SQLiteFaultVFS.register()
        let dir = try TempDir()
        let recorder = Recorder(prefix: dir.path)
        let context = Unmanaged.passRetained(recorder)  // never released: a late hook call may still use it
        chaos_vfs_set_hook(recordingHook, context.toOpaque())
        defer { chaos_vfs_set_hook(nil, nil) }

        let walPath = dir.path + "/wal.sqlite"
        do {
            let db = try Connection(path: walPath)
            defer { db.close() }
            #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
            try db.exec("CREATE TABLE t(x)")
            try db.exec("INSERT INTO t VALUES (1)")
        }
        let rollbackPath = dir.path + "/rollback.sqlite"
        do {
            let db = try Connection(path: rollbackPath)
            defer { db.close() }
            try db.exec("CREATE TABLE t(x)")
            try db.exec("INSERT INTO t VALUES (1)")
        }
        chaos_vfs_set_hook(nil, nil)

        let seen = recorder.calls.withLock { $0 }
        func saw(_ op: Int32, _ kind: Int32, _ path: String) -> Bool {
            seen.contains(Call(op: op, kind: kind, path: path))
        }
        #expect(saw(CHAOS_OP_OPEN, CHAOS_FILE_MAIN_DB, walPath))
        #expect(saw(CHAOS_OP_OPEN, CHAOS_FILE_WAL, walPath + "-wal"))
        #expect(saw(CHAOS_OP_WRITE, CHAOS_FILE_WAL, walPath + "-wal"))
        #expect(saw(CHAOS_OP_SYNC, CHAOS_FILE_WAL, walPath + "-wal"))
        #expect(saw(CHAOS_OP_SHM_MAP, CHAOS_FILE_MAIN_DB, walPath))
        #expect(saw(CHAOS_OP_CLOSE, CHAOS_FILE_MAIN_DB, walPath))
        #expect(saw(CHAOS_OP_OPEN, CHAOS_FILE_MAIN_JOURNAL, rollbackPath + "-journal"))
        #expect(saw(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, rollbackPath))
        #expect(saw(CHAOS_OP_DELETE, CHAOS_FILE_MAIN_JOURNAL, rollbackPath + "-journal"))
        #expect(saw(CHAOS_OP_READ, CHAOS_FILE_MAIN_DB, rollbackPath))
    }

    @Test func theHookCanFailAWriteAndClearingItHeals() throws {
        try SQLiteFaultVFS.register()
        let dir = try TempDir()
        let db = try Connection(path: dir.path + "/full.sqlite")
        defer { db.close() }
        #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
        try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
        try db.exec("INSERT INTO t(value) VALUES ('before')")

        let prefix = strdup(dir.path + "/")!  // never freed: a late hook call may still read it
        chaos_vfs_set_hook(diskFullHook, UnsafeMutableRawPointer(prefix))
        defer { chaos_vfs_set_hook(nil, nil) }

        // Autocommit INSERT: its implicit commit writes the WAL and fails.
        #expect(db.execCode("INSERT INTO t(value) VALUES ('lost 1')") == SQLITE_FULL)
        #expect(sqlite3_errcode(db.handle) == SQLITE_FULL)

        // Explicit transaction: the COMMIT is what fails.
        try db.exec("BEGIN")
        try db.exec("INSERT INTO t(value) VALUES ('lost 2')")
        #expect(db.execCode("COMMIT") == SQLITE_FULL)
        if sqlite3_get_autocommit(db.handle) == 0 { try db.exec("ROLLBACK") }

        // Reads still work while writes fail.
        #expect(try db.int("SELECT count(*) FROM t") == 1)

        chaos_vfs_set_hook(nil, nil)
        try db.exec("INSERT INTO t(value) VALUES ('after')")
        #expect(try db.int("SELECT count(*) FROM t") == 2)
        #expect(try db.string("SELECT group_concat(value, ',') FROM t") == "before,after")
        #expect(try db.string("PRAGMA integrity_check") == "ok")
    }
}

// MARK: - Hooks (C function pointers: they capture nothing, state comes through `context`)

/// Fails writes to the main database and WAL under the directory `context` (a C string ending in "/").
private let diskFullHook: chaos_vfs_hook = { context, op, kind, path, _, _ in
    guard op == CHAOS_OP_WRITE, kind == CHAOS_FILE_MAIN_DB || kind == CHAOS_FILE_WAL,
        let path, let context
    else { return 0 }
    let prefix = context.assumingMemoryBound(to: CChar.self)
    return strncmp(path, prefix, strlen(prefix)) == 0 ? SQLITE_FULL : 0
}

/// Records (op, kind, path) for files under the recorder's prefix; never fails anything.
private let recordingHook: chaos_vfs_hook = { context, op, kind, path, _, _ in
    guard let context, let path else { return 0 }
    let recorder = Unmanaged<Recorder>.fromOpaque(context).takeUnretainedValue()
    let p = String(cString: path)
    if p.hasPrefix(recorder.prefix + "/") {
        _ = recorder.calls.withLock { $0.insert(Call(op: op, kind: kind, path: p)) }
    }
    return 0
}

private struct Call: Hashable { let op: Int32, kind: Int32, path: String }

private final class Recorder: Sendable {
    let prefix: String
    let calls = Mutex<Set<Call>>([])
    init(prefix: String) { self.prefix = prefix }
}

// MARK: - Helpers

private struct Counters {
    var opens: Int64 = 0, reads: Int64 = 0, writes: Int64 = 0, syncs: Int64 = 0
    static func now() -> Counters {
        var c = Counters()
        chaos_vfs_counters(&c.opens, &c.reads, &c.writes, &c.syncs)
        return c
    }
}

private struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32, message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// A temp directory, resolved to its real path (the unix VFS resolves symlinks
/// in the paths it hands the shim), removed at deinit.
private final class TempDir {
    let path: String
    init() throws {
        let raw = FileManager.default.temporaryDirectory
            .appendingPathComponent("chaos-vfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: raw, withIntermediateDirectories: true)
        guard let resolved = realpath(raw, nil) else { throw SQLiteError(code: -1, message: "realpath \(raw)") }
        defer { free(resolved) }
        path = String(cString: resolved)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A bare sqlite3 connection opened with the default VFS (nil name), like GRDB does.
private final class Connection {
    let handle: OpaquePointer
    init(path: String) throws {
        var h: OpaquePointer?
        let rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let h else {
            let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "no handle"
            sqlite3_close(h)
            throw SQLiteError(code: rc, message: message)
        }
        handle = h
    }
    func close() { sqlite3_close(handle) }

    func execCode(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }

    func exec(_ sql: String) throws {
        let rc = execCode(sql)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
    }

    /// First column of the first row, as text.
    func string(_ sql: String) throws -> String? {
        var stmt: OpaquePointer?
        var rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        defer { sqlite3_finalize(stmt) }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
        rc = sqlite3_step(stmt)
        guard rc == SQLITE_ROW else {
            if rc == SQLITE_DONE { return nil }
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
        }
        return sqlite3_column_text(stmt, 0).map { String(cString: $0) }
    }

    func int(_ sql: String) throws -> Int? { try string(sql).flatMap { Int($0) } }
}
