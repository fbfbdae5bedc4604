import CChaosVFS
import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

/// Crash trials: each runs ``PowerLossVFSChild`` in a child process (an exit test:
/// this test executable again, running that one closure), which crashes by power loss at a
/// chosen point; the parent then opens the database with the plain "unix" VFS and
/// checks it: `PRAGMA integrity_check`, every transaction whose COMMIT returned
/// before the crash (the child's stdout says which) is there, and no transaction
/// is there in part.
///
/// Nothing here arms anything in this process, so the suite runs in parallel.
@Suite struct PowerLossVFSTests {

    @Test func withSynchronousFullNoCrashPointCorruptsOrLosesACommit() async throws {
        let started = ContinuousClock.now
        var configs: [PowerLossTrialConfig] = []
        var totals: [String: (writes: Int, syncs: Int)] = [:]
        for journalMode in ["wal", "delete"] {
            let dry = try await PowerLossTrial.run(PowerLossTrialConfig(directory: "", journalMode: journalMode))
            let stats = try #require(dry.stats, "the dry run printed no stats: \(dry)")
            #expect(dry.exitStatus == 0 && dry.commits == 12)
            totals[journalMode] = stats
            // Every sync point, and every write point, of the whole workload.
            for n in 1...stats.syncs {
                let mode = PowerLoss.Mode.allCases[n % 3]
                configs.append(PowerLossTrialConfig(
                    directory: "", journalMode: journalMode, torn: mode == .torn, atSync: n, mode: mode, seed: UInt64(n)))
            }
            for n in stride(from: 1, through: stats.writes, by: 3) {
                let mode = PowerLoss.Mode.allCases[(n / 3) % 3]
                configs.append(PowerLossTrialConfig(
                    directory: "", journalMode: journalMode, torn: mode == .torn, afterWrites: n, mode: mode,
                    seed: UInt64(1000 + n), withStorageRule: n % 10 == 1))
            }
            // More seeds for the torn model, at every 3rd sync.
            for n in stride(from: 2, through: stats.syncs, by: 3) {
                for seed in [UInt64(7), 99] {
                    configs.append(PowerLossTrialConfig(
                        directory: "", journalMode: journalMode, torn: true, atSync: n, mode: .torn, seed: seed))
                }
            }
        }

        let results = try await PowerLossTrial.runAll(configs, keepProblems: true)
        var problems: [String] = []
        for result in results {
            if result.exitStatus != PowerLoss.exitCode {
                problems.append("\(result.config): exit \(result.exitStatus), expected \(PowerLoss.exitCode): \(result.output.suffix(300))")
            } else if let problem = result.verdict.problem {
                problems.append("\(result.config): \(problem)")
            }
        }
        let elapsed = ContinuousClock.now - started
        let meanMs = results.map { Double($0.duration.components.attoseconds) / 1e15 + Double($0.duration.components.seconds) * 1000 }
            .reduce(0, +) / Double(results.count)
        print("power loss: \(results.count) crash trials in \(elapsed), \(Int(meanMs)) ms per child (WAL \(totals["wal"]!), DELETE \(totals["delete"]!)), \(problems.count) problems")
        #expect(results.count >= 150)
        #expect(problems.isEmpty, "\(problems.count) of \(results.count) trials:\n\(problems.prefix(10).joined(separator: "\n"))")
        let crashedMidway = results.filter { $0.commits < 12 }.count
        #expect(crashedMidway > results.count / 2, "the crash points are spread over the workload")
    }

    /// A crash sweep's image of a cut (``PowerLoss/take(_:)``, taken while the app goes on)
    /// reads as what that cut leaves when it ends the process, row for row and byte for
    /// byte of every row: at syncs and after writes, in every mode, torn seeds included,
    /// in WAL and rollback-journal mode.
    @Test(arguments: ["wal", "delete"])
    func anImageIsWhatTheCutAtItsMomentLeaves(journalMode: String) async throws {
        let dry = try await PowerLossTrial.run(PowerLossTrialConfig(directory: "", journalMode: journalMode, torn: true))
        let stats = try #require(dry.stats, "\(dry.output)")
        let images = try VFSTempDir("images")
        var points: [PowerLossImage] = []
        for (index, n) in stride(from: 1, through: stats.syncs, by: max(1, stats.syncs / 6)).enumerated() {
            let mode = PowerLoss.Mode.allCases[index % 3]
            points.append(PowerLossImage(atSync: n, mode: mode, seed: UInt64(n), directory: images.path + "/sync-\(n)"))
        }
        for (index, n) in stride(from: 1, through: stats.writes, by: max(1, stats.writes / 9)).enumerated() {
            let mode = PowerLoss.Mode.allCases[index % 3]
            points.append(PowerLossImage(afterWrites: n, mode: mode, seed: UInt64(100 + n), directory: images.path + "/write-\(n)"))
        }
        let imaged = try await PowerLossTrial.run(PowerLossTrialConfig(directory: "", journalMode: journalMode, torn: true, images: points))
        #expect(imaged.exitStatus == 0 && imaged.commits == 12 && !imaged.output.contains("REFUSED"), "\(imaged.output)")
        var differing: [String] = []
        for point in points {
            let cut = try await PowerLossTrial.run(PowerLossTrialConfig(directory: "", journalMode: journalMode, torn: true, atSync: point.atSync,
                                                                        afterWrites: point.afterWrites, mode: point.mode, seed: point.seed), content: true)
            #expect(cut.exitStatus == PowerLoss.exitCode)
            let image = PowerLossTrial.content(of: point.directory)
            if image != cut.content || image.hasPrefix("no store") {
                differing.append("\(point.directory.split(separator: "/").last ?? "") \(point.mode): image \(image.prefix(200)) | cut \(cut.content?.prefix(200) ?? "nil")")
            }
        }
        #expect(points.count >= 12)
        #expect(differing.isEmpty, "\(differing.joined(separator: "\n"))")
    }

    @Test func withoutSyncsADroppedPowerCutLosesCommittedTransactions() async throws {
        let configs = [
            PowerLossTrialConfig(directory: "", journalMode: "wal", synchronous: "off", crashAtEnd: true, mode: .drop, seed: 1),
            PowerLossTrialConfig(
                directory: "", journalMode: "wal", synchronous: "normal", autocheckpointPages: 1000, crashAtEnd: true,
                mode: .drop, seed: 2),
            PowerLossTrialConfig(directory: "", journalMode: "wal", synchronous: "off", crashAtEnd: true, mode: .keep, seed: 3),
        ]
        let results = try await PowerLossTrial.runAll(configs)
        for result in results {
            #expect(result.exitStatus == PowerLoss.exitCode, "\(result.config): \(result.output.suffix(300))")
            #expect(result.commits == 12)
        }
        // The negative: a simulator that finds nothing here is not simulating anything.
        #expect(results[0].verdict.lostCommits > 0, "OFF + drop: \(results[0].verdict)")
        #expect(results[1].verdict.lostCommits > 0, "NORMAL + drop: \(results[1].verdict)")
        // And the control: the same workload, every write kept, loses nothing.
        #expect(results[2].verdict.problem == nil, "OFF + keep: \(results[2].verdict)")
    }

    /// The model itself, on raw writes (``PowerLossVFSChild/runSectors(_:)``):
    /// drop leaves exactly the synced bytes, keep exactly the latest, torn a seeded
    /// mix of old, new and garbage 512-byte sectors, the same for the same seed.
    @Test func dropKeepAndTornDoWhatTheySayToEachSector() async throws {
        let synced = PowerLossVFSChild.sectorsSyncedBytes, appended = PowerLossVFSChild.sectorsAppendedBytes
        func config(_ mode: PowerLoss.Mode, seed: UInt64 = 1) -> PowerLossTrialConfig {
            PowerLossTrialConfig(directory: "", torn: mode == .torn, mode: mode, seed: seed, workload: "sectors")
        }
        let runs = try await PowerLossTrial.runAll(
            [config(.drop), config(.keep), config(.torn, seed: 5), config(.torn, seed: 5), config(.torn, seed: 6)])
        for run in runs {
            #expect(run.exitStatus == PowerLoss.exitCode, "\(run.config): \(run.output.suffix(300))")
            #expect(run.output.contains("PENDING 5"), "4 overwrites and 1 append pending: \(run.output.suffix(200))")
        }
        let drop = runs[0].sectorsFile, keep = runs[1].sectorsFile
        #expect(drop == [UInt8](repeating: 0xAA, count: synced), "drop: the synced bytes, the append truncated away")
        #expect(keep == [UInt8](repeating: 0xBB, count: synced) + [UInt8](repeating: 0xCC, count: appended))

        let torn = runs[2].sectorsFile
        #expect(torn == runs[3].sectorsFile, "same seed, same crash")
        #expect(torn != runs[4].sectorsFile, "another seed, another crash")
        var kinds: [String: Int] = [:]
        for start in stride(from: 0, to: min(torn.count, synced), by: 512) {
            let sector = torn[start..<min(start + 512, torn.count)]
            let kind = sector.allSatisfy { $0 == 0xAA } ? "old" : sector.allSatisfy { $0 == 0xBB } ? "new" : "garbage"
            kinds[kind, default: 0] += 1
        }
        #expect(kinds["old", default: 0] > 0 && kinds["new", default: 0] > 0 && kinds["garbage", default: 0] > 0, "\(kinds)")
        #expect(torn.count == synced || torn.count == synced + appended)
    }

    /// Torn garbage stays inside the bytes a write covered: a write into part of a synced
    /// sector may leave its own bytes old, new or garbage, never the rest of the sector.
    /// (Garbage edge to edge lost SQLite's last commit after two cuts; chaos_powerloss.c.)
    @Test func tornGarbageStaysInsideTheBytesAWriteCovered() async throws {
        let range = PowerLossVFSChild.partialRange
        let runs = try await PowerLossTrial.runAll((1...12).map {
            PowerLossTrialConfig(directory: "", torn: true, mode: .torn, seed: UInt64($0), workload: "partial-sector")
        })
        var covered: Set<String> = []
        for run in runs {
            #expect(run.exitStatus == PowerLoss.exitCode, "\(run.config): \(run.output.suffix(300))")
            let file = run.sectorsFile
            #expect(file.count == 1024, "\(run.config)")
            guard file.count == 1024 else { continue }
            let outside = file.indices.filter { !range.contains($0) }.map { file[$0] }
            #expect(outside.allSatisfy { $0 == 0xAA }, "\(run.config): the synced bytes around the write changed")
            let inside = file[range]
            covered.insert(inside.allSatisfy { $0 == 0xAA } ? "old" : inside.allSatisfy { $0 == 0xBB } ? "new" : "garbage")
        }
        #expect(covered == ["old", "new", "garbage"], "12 seeds reach every outcome for the written bytes: \(covered)")
    }
}

/// One crash trial: spawn, wait, verify.
struct PowerLossTrial: Sendable {
    struct Verdict: Sendable, CustomStringConvertible {
        var integrity = "ok"
        var lostCommits = 0
        var partialTransactions = 0
        var badPayloads = 0
        var problem: String? {
            if integrity != "ok" { return "integrity_check: \(integrity)" }
            if lostCommits > 0 { return "\(lostCommits) committed transactions lost" }
            if partialTransactions > 0 { return "\(partialTransactions) transactions partly there" }
            if badPayloads > 0 { return "\(badPayloads) rows with a wrong payload" }
            return nil
        }
        var description: String { problem ?? "ok" }
    }

    struct Result: Sendable {
        var config: PowerLossTrialConfig
        var exitStatus: Int32
        var output: String
        var ready: Bool
        var commits: Int
        var stats: (writes: Int, syncs: Int)?
        var verdict: Verdict
        var duration: Duration
        /// The "sectors" workload's file, as the crash left it.
        var sectorsFile: [UInt8]
        /// What the store the child left reads as (``PowerLossTrial/content(of:)``), when asked for.
        var content: String?
    }

    /// Runs the trials, two children at a time (2 cores here), each in its own temp
    /// dir, removed afterwards unless `keepProblems` and the trial found a problem.
    static func runAll(_ configs: [PowerLossTrialConfig], width: Int = 2, keepProblems: Bool = false) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: configs.count)
            var next = 0
            for _ in 0..<min(width, configs.count) {
                let index = next
                group.addTask { (index, try await run(configs[index], keepProblems: keepProblems)) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < configs.count {
                    let index = next
                    group.addTask { (index, try await run(configs[index], keepProblems: keepProblems)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }

    /// Runs one child in a fresh temp directory and verifies what it left.
    static func run(_ config: PowerLossTrialConfig, keepProblems: Bool = false, content: Bool = false) async throws -> Result {
        let dir = try VFSTempDir("powerloss")
        var config = config
        config.directory = dir.path
        let started = ContinuousClock.now
        let (status, output) = try await spawnChild(config)
        let duration = ContinuousClock.now - started
        let lines = output.split(separator: "\n").map(String.init)
        let commits = lines.compactMap { $0.hasPrefix("COMMIT ") ? Int($0.dropFirst(7)) : nil }.max() ?? 0
        var stats: (writes: Int, syncs: Int)?
        if let line = lines.first(where: { $0.hasPrefix("STATS ") }) {
            let numbers = line.split(separator: " ").dropFirst().compactMap { Int($0) }
            if numbers.count == 2 { stats = (numbers[0], numbers[1]) }
        }
        let ready = lines.contains("READY")
        let sectorsFile = (try? Data(contentsOf: URL(fileURLWithPath: config.directory + "/sectors.db"))).map { [UInt8]($0) } ?? []
        let verdict = config.workload == "sql" ? verify(config, ready: ready, commits: commits) : Verdict()
        if keepProblems, verdict.problem != nil || status != PowerLoss.exitCode { dir.keep = true }  // for a post-mortem
        return Result(
            config: config, exitStatus: status, output: output, ready: ready, commits: commits, stats: stats,
            verdict: verdict, duration: duration, sectorsFile: sectorsFile, content: content ? Self.content(of: dir.path) : nil)
    }

    /// What the store in `folder` reads as, opened (and recovered) with the plain "unix"
    /// VFS: its integrity, every row of the workload's tables (the random blobs by length).
    /// Bytes cannot be compared across processes: SQLite salts each WAL and journal header,
    /// and the workload draws its blobs, from each process's own random seed.
    static func content(of folder: String) -> String {
        let path = folder + "/crash.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return "no store" }
        do {
            let db = try RawDB(path: path, vfs: "unix", flags: SQLITE_OPEN_READWRITE)
            var lines = try db.rows("PRAGMA integrity_check").map { $0.joined() }
            let tables = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { $0.joined() }
            lines.append("tables: \(tables)")
            if tables.contains("t") { lines += try db.rows("SELECT txn, k, payload FROM t ORDER BY txn, k").map { $0.joined(separator: ",") } }
            if tables.contains("scratch") { lines += try db.rows("SELECT id, length(blob) FROM scratch ORDER BY id").map { $0.joined(separator: ",") } }
            return lines.joined(separator: "\n")
        } catch {
            return "cannot read: \(error)"
        }
    }

    /// Opens the database with the plain "unix" VFS, as the next launch would
    /// after the reboot, and checks it.
    static func verify(_ config: PowerLossTrialConfig, ready: Bool, commits: Int) -> Verdict {
        var verdict = Verdict()
        guard FileManager.default.fileExists(atPath: config.databasePath) else {
            if ready { verdict.lostCommits = max(commits, 1) }
            return verdict
        }
        do {
            let db = try RawDB(path: config.databasePath, vfs: "unix", flags: SQLITE_OPEN_READWRITE)
            verdict.integrity = try db.rows("PRAGMA integrity_check").map { $0.joined() }.prefix(3).joined(separator: "; ")
            guard verdict.integrity == "ok" else { return verdict }
            let hasTable = try db.int("SELECT count(*) FROM sqlite_schema WHERE name = 't'") == 1
            guard hasTable else {
                if ready { verdict.lostCommits = max(commits, 1) }  // the schema itself was committed
                return verdict
            }
            var counts: [Int: Int] = [:]
            for row in try db.rows("SELECT txn, count(*) FROM t GROUP BY txn") {
                counts[Int(row[0])!] = Int(row[1])!
            }
            verdict.lostCommits = commits > 0 ? (1...commits).filter { counts[$0] != config.rowsPerTransaction }.count : 0
            verdict.partialTransactions = counts.values.filter { $0 != 0 && $0 != config.rowsPerTransaction }.count
            verdict.badPayloads = try db.int("SELECT count(*) FROM t WHERE payload IS NOT \(PowerLossVFSChild.payloadSQL)") ?? -1
        } catch {
            verdict.integrity = "cannot read: \(error)"
        }
        return verdict
    }

    /// The child, as an exit test: this test executable again, running
    /// ``PowerLossVFSChild/main(_:)`` with `config`. Its exit status and stdout come back.
    static func spawnChild(_ config: PowerLossTrialConfig) async throws -> (Int32, String) {
        let result = await #expect(processExitsWith: config.expectedExit, observing: [\.standardOutputContent],
                                   "crash trial \(config)") { [config] in
            PowerLossVFSChild.main(config)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        switch result?.exitStatus {
        case let .exitCode(code)?: return (code, output)
        case let .signal(signal)?: return (128 + signal, output)
        default: return (-1, output)
        }
    }
}
