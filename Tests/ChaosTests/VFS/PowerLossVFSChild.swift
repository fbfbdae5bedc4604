import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

/// What one crash trial's child process does. An exit test captures it (it is
/// Codable), so it reaches the child as the test's own value.
struct PowerLossTrialConfig: Codable, Sendable, CustomStringConvertible {
    var directory: String
    var journalMode: String = "wal"      // wal | delete
    var synchronous: String = "full"     // off | normal | full
    var transactions = 12
    var rowsPerTransaction = 4
    var autocheckpointPages = 8          // small, so WAL checkpoints (store writes and syncs) happen mid-run
    var torn = false                     // enable(torn:) — needed for mode torn
    var atSync: Int?
    var afterWrites: Int?
    var crashAtEnd = false
    var mode: PowerLoss.Mode = .drop
    var seed: UInt64 = 0
    /// Arms a slow-io rule too, so the storage-fault hook is live during the crash.
    var withStorageRule = false
    /// "sql" (the transactions), or "sectors" / "partial-sector" (raw writes to one file,
    /// for the model itself).
    var workload = "sql"
    /// Images to take instead of a cut (``PowerLoss/take(_:)``): the child runs to its end.
    var images: [PowerLossImage] = []

    var databasePath: String { directory + "/crash.sqlite" }

    var description: String {
        var parts = ["\(journalMode)/\(synchronous)", "mode=\(mode.rawValue)", "seed=\(seed)"]
        if let atSync { parts.append("at-sync=\(atSync)") }
        if let afterWrites { parts.append("after-writes=\(afterWrites)") }
        if crashAtEnd { parts.append("at-end") }
        if torn { parts.append("torn-enabled") }
        if withStorageRule { parts.append("with-rule") }
        return parts.joined(separator: " ")
    }

    /// How the child should end: by the armed power cut, or normally (a dry run).
    var expectedExit: ExitTest.Condition {
        atSync != nil || afterWrites != nil || crashAtEnd || workload != "sql" ? .exitCode(PowerLoss.exitCode) : .success
    }
}

/// The crash-trial child: what an exit test of ``PowerLossVFSTests`` runs in its own
/// process. It runs a workload through the chaos VFS with power loss armed, writes
/// "READY" and "COMMIT <n>" lines to stdout with write(2) as soon as each COMMIT
/// returns, and dies by `_exit(PowerLoss.exitCode)` at the armed crash.
enum PowerLossVFSChild {
    /// The child's whole life; it never returns to the parent's test.
    static func main(_ config: PowerLossTrialConfig) {
        do {
            switch config.workload {
            case "sectors": try runSectors(config)
            case "partial-sector": try runPartialSector(config)
            default: try run(config)
            }
        } catch {
            say("ERROR \(error)")
            exit(3)
        }
    }

    /// Unbuffered, so a line written before the crash is never lost with it.
    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }

    /// The SQL payload of row `k` of transaction `txn`; the verifier recomputes it.
    static let payloadSQL = "printf('%d:%d:%0200d', txn, k, txn * 1000 + k)"

    static func run(_ config: PowerLossTrialConfig) throws {
        try SQLiteFaultVFS.register()
        PowerLoss.enable(torn: config.torn, under: config.directory)
        if config.withStorageRule {
            try StorageHook.arm(ArmedFault(id: "slow", fault: SlowIOFault(latency: .zero, jitter: .milliseconds(1)),
                                             trigger: Trigger(), seed: config.seed), under: config.directory)
        }
        if !config.images.isEmpty, PowerLoss.take(config.images) != config.images.count { say("IMAGES REFUSED") }
        if config.atSync != nil || config.afterWrites != nil {
            PowerLoss.arm(atSync: config.atSync, afterWrites: config.afterWrites, mode: config.mode, seed: config.seed)
        }

        let a = try RawDB(path: config.databasePath)
        try a.exec("PRAGMA auto_vacuum=FULL")
        _ = try a.rows("PRAGMA journal_mode=\(config.journalMode)")
        try a.exec("PRAGMA synchronous=\(config.synchronous); PRAGMA wal_autocheckpoint=\(config.autocheckpointPages)")
        try a.exec("""
            CREATE TABLE t(txn INTEGER NOT NULL, k INTEGER NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (txn, k));
            CREATE TABLE scratch(id INTEGER PRIMARY KEY, blob BLOB NOT NULL);
            """)
        // A second connection on the same file: the undo log is per path, not per handle.
        let b = try RawDB(path: config.databasePath)
        try b.exec("PRAGMA synchronous=\(config.synchronous); PRAGMA wal_autocheckpoint=\(config.autocheckpointPages); PRAGMA busy_timeout=2000")
        say("READY")

        for txn in 1...config.transactions {
            let db = txn % 2 == 0 ? a : b
            var sql = "BEGIN IMMEDIATE;"
            for k in 0..<config.rowsPerTransaction {
                sql += "INSERT INTO t(txn, k, payload) SELECT \(txn), \(k), \(payloadSQL) FROM (SELECT \(txn) AS txn, \(k) AS k);"
            }
            sql += "INSERT INTO scratch(blob) VALUES (randomblob(3000));"
            if txn % 4 == 0 { sql += "DELETE FROM scratch;" }  // auto_vacuum=FULL: the store shrinks
            sql += "COMMIT;"
            try db.exec(sql)
            say("COMMIT \(txn)")
        }
        if config.crashAtEnd { PowerLoss.crashNow(mode: config.mode, seed: config.seed) }
        let stats = PowerLoss.stats()
        say("STATS \(stats.writes) \(stats.syncs)")
    }

    /// The sector model without SQLite's own logic in the way: through the chaos VFS,
    /// write 16 KiB of 0xAA to a "main database" file and sync it, overwrite it with
    /// 0xBB in 4 KiB writes, append 4 KiB of 0xCC, then crash. The parent reads the file.
    static let sectorsSyncedBytes = 16_384, sectorsAppendedBytes = 4096

    static func runSectors(_ config: PowerLossTrialConfig) throws {
        let (file, methods) = try openSectorsFile(config)
        func write(_ byte: UInt8, count: Int, at offset: Int) throws { try rawWrite(file, methods, byte, count, offset) }
        try write(0xAA, count: sectorsSyncedBytes, at: 0)
        let rc = methods.pointee.xSync(file, SQLITE_SYNC_FULL)
        guard rc == SQLITE_OK else { throw VFSTestError(code: rc, message: "xSync") }
        for offset in stride(from: 0, to: sectorsSyncedBytes, by: 4096) { try write(0xBB, count: 4096, at: offset) }
        try write(0xCC, count: sectorsAppendedBytes, at: sectorsSyncedBytes)
        say("PENDING \(PowerLoss.stats().pending)")
        PowerLoss.crashNow(mode: config.mode, seed: config.seed)
    }

    /// The range the "partial-sector" workload overwrites inside its second synced sector.
    static let partialRange = 600..<624

    /// A write into part of a synced sector (as SQLite's first frame after a cut lands in
    /// the sector that ends the last commit): 1 KiB of 0xAA synced, 24 bytes of 0xBB
    /// inside the second sector, then the cut.
    static func runPartialSector(_ config: PowerLossTrialConfig) throws {
        let (file, methods) = try openSectorsFile(config)
        try rawWrite(file, methods, 0xAA, 1024, 0)
        let rc = methods.pointee.xSync(file, SQLITE_SYNC_FULL)
        guard rc == SQLITE_OK else { throw VFSTestError(code: rc, message: "xSync") }
        try rawWrite(file, methods, 0xBB, partialRange.count, partialRange.lowerBound)
        PowerLoss.crashNow(mode: config.mode, seed: config.seed)
    }

    static func rawWrite(
        _ file: UnsafeMutablePointer<sqlite3_file>, _ methods: UnsafePointer<sqlite3_io_methods>, _ byte: UInt8,
        _ count: Int, _ offset: Int
    ) throws {
        let bytes = [UInt8](repeating: byte, count: count)
        let rc = bytes.withUnsafeBytes { methods.pointee.xWrite(file, $0.baseAddress, Int32(count), sqlite3_int64(offset)) }
        guard rc == SQLITE_OK else { throw VFSTestError(code: rc, message: "xWrite") }
    }

    /// `sectors.db` opened as a main database through the chaos VFS, power loss enabled.
    static func openSectorsFile(
        _ config: PowerLossTrialConfig
    ) throws -> (UnsafeMutablePointer<sqlite3_file>, UnsafePointer<sqlite3_io_methods>) {
        try SQLiteFaultVFS.register()
        PowerLoss.enable(torn: config.torn, sectorSize: 512, under: config.directory)
        guard let vfs = sqlite3_vfs_find(SQLiteFaultVFS.name) else { throw VFSTestError(code: -1, message: "no chaos VFS") }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        let file = buffer.bindMemory(to: sqlite3_file.self, capacity: 1)
        let path = strdup(config.directory + "/sectors.db")!  // SQLite keeps the name: never freed (the process dies)
        let flags = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE
        let rc = vfs.pointee.xOpen(vfs, path, file, flags, nil)
        guard rc == SQLITE_OK, let methods = file.pointee.pMethods else { throw VFSTestError(code: rc, message: "xOpen") }
        return (file, methods)
    }
}
