import CSQLite
import Chaos
import Foundation

/// The pass-through fault VFS against SQLite's plain "unix" VFS, same workload, same
/// disk, interleaved in one run. WAL with synchronous=NORMAL: commits do not fsync, so
/// the figure is the shim's own cost, not the disk's.
enum VFSBenchmark {
    typealias Workload = (name: String, run: @Sendable (OpaquePointer) throws -> Void)

    static let workloads: [Workload] = [
        ("10,000 single-row transactions", { db in
            for value in 0..<10_000 { try exec(db, "INSERT INTO t(value) VALUES (\(value))") }
        }),
        ("100,000 rows in one transaction", { db in
            try exec(db, "BEGIN")
            try insertMany(db, count: 100_000)
            try exec(db, "COMMIT")
        }),
        ("100,000 point reads", { db in
            try exec(db, "BEGIN"); try insertMany(db, count: 10_000); try exec(db, "COMMIT")
            try pointReads(db, count: 100_000, keys: 10_000)
        }),
    ]

    static func run(rounds: Int) throws {
        try SQLiteFaultVFS.register(makeDefault: false)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        print("Fault VFS pass-through against plain unix (WAL, synchronous=NORMAL, \(rounds) interleaved rounds)")
        let counted = InstructionCount.available
        for (index, workload) in workloads.enumerated() {
            var round = 0
            func measure(_ vfs: String) throws -> Double {
                round += 1
                let path = folder.appendingPathComponent("\(index)-\(vfs)-\(round).sqlite").path
                let db = try open(path, vfs: vfs)
                defer { sqlite3_close_v2(db) }
                return try seconds { try workload.run(db) }
            }
            let (unix, chaos) = try interleaved(rounds: rounds, { try measure("unix") }, { try measure(SQLiteFaultVFS.name) })
            // Each round's pair ran back to back: their ratio cancels the machine's slow drifts.
            let ratio = Sample(values: zip(chaos.values, unix.values).map { $0 / $1 })
            line("  \(workload.name)", "unix \(Sample(values: unix.values.map { $0 * 1000 }).formatted("ms"))")
            BenchFigures.record("fault VFS, \(workload.name)", unit: "ms", Sample(values: chaos.values.map { $0 * 1000 }),
                                goal: "≤ 1.05 × unix", peer: ("unix VFS", Sample(values: unix.values.map { $0 * 1000 })))
            line("", "chaos \(Sample(values: chaos.values.map { $0 * 1000 }).formatted("ms"))")
            line("", "ratio chaos/unix " + ratio.formatted("", digits: 3).replacingOccurrences(of: "  (", with: " (")
                + " (median of the rounds' ratios); goal ≤ 1.05")
            if counted, let unixCount = InstructionCount.ofWorkload(index, vfs: "unix"),
               let chaosCount = InstructionCount.ofWorkload(index, vfs: SQLiteFaultVFS.name) {
                line("", String(format: "instructions (callgrind): unix %.1f M, chaos %.1f M, ratio %.4f",
                                Double(unixCount) / 1e6, Double(chaosCount) / 1e6, Double(chaosCount) / Double(unixCount)))
            }
        }
        if counted { InstructionCount.cleanUp() } else { line("", "(instruction counts skipped: no valgrind or no strip here)") }
    }

    /// `chaos-bench --vfs-workload INDEX VFS`: one workload, once, for an instruction count.
    static func runOne(index: Int, vfs: String) throws {
        guard index == -1 || workloads.indices.contains(index) else { throw ChaosError.io("no workload \(index)") }
        try SQLiteFaultVFS.register(makeDefault: false)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try open(folder.appendingPathComponent("one.sqlite").path, vfs: vfs)
        defer { sqlite3_close_v2(db) }
        if index >= 0 { try workloads[index].run(db) }
    }

    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func open(_ path: String, vfs: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) == SQLITE_OK, let db else {
            throw ChaosError.io("cannot open \(path) with \(vfs)")
        }
        try exec(db, "PRAGMA journal_mode=WAL")
        try exec(db, "PRAGMA synchronous=NORMAL")
        try exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        return db
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw ChaosError.io("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    static func insertMany(_ db: OpaquePointer, count: Int) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO t(value) VALUES (?)", -1, &statement, nil) == SQLITE_OK else {
            throw ChaosError.io(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        for value in 0..<count {
            sqlite3_bind_int64(statement, 1, sqlite3_int64(value))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw ChaosError.io(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
    }

    static func pointReads(_ db: OpaquePointer, count: Int, keys: Int) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT value FROM t WHERE id = ?", -1, &statement, nil) == SQLITE_OK else {
            throw ChaosError.io(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var rng = SplitMix64(seed: 42)
        for _ in 0..<count {
            sqlite3_bind_int64(statement, 1, sqlite3_int64(rng.nextInt(below: keys) + 1))
            guard sqlite3_step(statement) == SQLITE_ROW else { throw ChaosError.io(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
    }
}
