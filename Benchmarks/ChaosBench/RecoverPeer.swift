import Chaos
import Foundation

/// The peer of the app's salvage: the sqlite3 shell's `.recover` (a page scan that
/// rebuilds what it can without walking the damaged b-trees), on a store damaged the
/// same way (same scenario steps, same seed), timed from the damaged file to a new
/// database, with the favourites it got back counted.
enum RecoverPeer {
    /// The shell `scripts/recover-shell.sh` built (`make bench` passes it as
    /// `CHAOS_RECOVER_SHELL`), else the system's.
    static let shell = ([ProcessInfo.processInfo.environment["CHAOS_RECOVER_SHELL"] ?? ""] + ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"])
        .first { !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0) }

    /// Why the peer cannot run here, or nil. `.recover` reads pages through the
    /// `sqlite_dbpage` table, which Debian's libsqlite3 3.40 is built without
    /// (SQLITE_ENABLE_DBPAGE_VTAB): there it fails on every file, a sound one included,
    /// and `make bench` builds a shell that has it (`scripts/recover-shell.sh`).
    static let unavailable: String? = {
        guard let shell else { return "no sqlite3 shell (apt-get install sqlite3)" }
        let answer = capture(shell, [":memory:", "SELECT count(*) FROM sqlite_dbpage"])
        return answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? "this sqlite3 lacks the sqlite_dbpage table .recover reads pages through (SQLITE_ENABLE_DBPAGE_VTAB)" : nil
    }()

    static func measure(chaos: String, size: Int, damage: String, rounds: Int) throws -> (time: Sample, rows: Int)? {
        guard let shell, unavailable == nil else { return nil }
        let scenario = try BenchScenario.seeded("recover-peer-\(size)", size: size, then: BenchScenario.relaunchOnce + damage)
        // A root of its own, removed whole: the case's folder is kept (--keep) to be read.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-recover-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: true, scratchRoot: root)
        _ = CaseRunner(scenario: scenario, options: options).run()
        let scratch = root
        guard let store = findStore(in: scratch) else { return nil }
        var times: [Double] = []
        var rows = 0
        for round in 0..<rounds {
            let output = scratch.appendingPathComponent("recovered-\(round).sqlite").path
            let started = ContinuousClock.now
            guard run(["-c", "'\(shell)' '\(store)' .recover | '\(shell)' '\(output)'"]) else { return nil }
            times.append((ContinuousClock.now - started).inSeconds * 1000)
            rows = Int(capture(shell, [output, "SELECT count(*) FROM favorite"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        return (Sample(values: times), rows)
    }

    /// The store the case left: `app.sqlite` under the scratch's data folder.
    static func findStore(in scratch: URL) -> String? {
        let files = FileManager.default.enumerator(atPath: scratch.path)?.compactMap { $0 as? String } ?? []
        return files.first { $0.hasSuffix("app.sqlite") && !$0.contains("backup") && !$0.contains("quarantine") }
            .map { scratch.appendingPathComponent($0).path }
    }

    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return true
    }

    private static func capture(_ executable: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
