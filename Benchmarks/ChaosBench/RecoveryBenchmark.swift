import Chaos
import Foundation

/// The catalog's wall time, and recovery against store size: a scenario seeds N
/// favourites, corrupts the store while the app is closed, and relaunches; the
/// report's recovery time is what the seeds promise to keep within 5 s.
enum RecoveryBenchmark {
    static func run(chaos: String, sizes: [Int], rounds: Int) throws {
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: false)
        print("The catalog (release build, \(rounds) rounds)")
        let scenarios = try options.target.catalog?.scenarios() ?? []
        for jobs in [1, 2] {
            let times = Sample(values: (0..<rounds).map { _ in
                Double(SuiteRunner(options: options, command: "bench").run(scenarios, jobs: jobs).summary.durationMs) / 1000
            })
            line("  chaos run --all -j \(jobs) (\(scenarios.count) cases)", times.formatted("s", digits: 2) + " (goal ≤ 60 s)")
            BenchFigures.record("chaos run --all -j \(jobs)", unit: "s", times, goal: "≤ 60 s")
        }
        print("")
        print("Recovery against size and damage (release build; the app's own recovery, measured to its first read)")
        if let why = RecoverPeer.unavailable { line("", "sqlite3 .recover beside it: skipped — \(why)") }
        for shape in Shape.allCases {
            for size in sizes {
                // The favourites the app shows afterwards: what its recovery got back.
                let scenario = try BenchScenario.seeded("recovery-\(size)", size: size,
                                                        then: BenchScenario.relaunchOnce + shape.steps + "\n  - launch\n  - do: favorites.list",
                                                        expect: "  - state: { probe: favorites.count, equals: \(size) }")
                var healthy: [Double] = []
                var recovery: [Double] = []
                var mode = "?"
                var rowsBack = "?"
                for _ in 0..<rounds {
                    let report = CaseRunner(scenario: scenario, options: options).run()
                    let launches = report.steps.filter { $0.label == "launch" }
                    if launches.count == 3, let ms = appLaunchMs(launches[1]) { healthy.append(ms) }
                    if let ms = report.recoveryMs { recovery.append(Double(ms)) }
                    mode = launches.last?.detail?.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
                    let count = report.expectations.first { $0.kind == "state" }?.observed
                    rowsBack = count.flatMap { $0.split(separator: " ").last.map(String.init) } ?? "?"
                }
                let goal = size >= 1_000_000 ? 5000.0 : size >= 100_000 ? 1000.0 : 1000.0
                let sample = Sample(values: recovery)
                line("  \(shape.rawValue), \(size) favourites", "recovery \(sample.formatted("ms", digits: 0)) → \(mode), \(rowsBack) back "
                    + "(goal ≤ \(Int(goal)) ms\(recovery.isEmpty ? ": never recovered" : sample.median <= goal ? ": met" : ": NOT met"))")
                if shape == .restore { line("", "healthy launch \(Sample(values: healthy).formatted("ms", digits: 0))") }
                var peer: (name: String, sample: Sample)?
                if shape != .restore, let recovered = try RecoverPeer.measure(chaos: chaos, size: size, damage: shape.steps, rounds: rounds) {
                    let ratio = recovered.time.median > 0 ? String(format: "%.2f", sample.median / recovered.time.median) : "?"
                    line("", "sqlite3 .recover on the same damage: \(recovered.time.formatted("ms", digits: 0)), "
                        + (recovered.rows == 0 ? "nothing back" : "\(recovered.rows) of \(size) favourites back")
                        + "; the app's time ×\(ratio) of it")
                    peer = ("sqlite3 .recover (\(recovered.rows) rows back)", recovered.time)
                }
                BenchFigures.record("recovery, \(shape.rawValue), \(size) favourites", unit: "ms", sample, goal: "≤ \(Int(goal)) ms",
                                    peer: peer)
            }
        }
    }

    /// The damage shapes: a restore from a backup, and salvages with no backup left.
    enum Shape: String, CaseIterable {
        case restore = "garbage header, backup kept"
        case garbageHeader = "garbage header, no backup"
        case zeroedPages = "zeroed pages, no backup"
        case flippedBytes = "flipped bytes, no backup"
        case truncated = "truncated, no backup"

        var steps: String {
            let noBackup = "  - fault: delete-file\n    file: backups\n"
            switch self {
            case .restore: return "  - fault: corrupt-file\n    how: garbage-header"
            case .garbageHeader: return noBackup + "  - fault: corrupt-file\n    how: garbage-header"
            case .zeroedPages: return noBackup + "  - fault: corrupt-file\n    how: zero-pages"
            case .flippedBytes: return noBackup + "  - fault: corrupt-file\n    how: flip-bytes"
            case .truncated: return noBackup + "  - fault: corrupt-file\n    how: truncate"
            }
        }
    }

    /// The app's own launch time, from a `launch` step's detail ("mode persistent in 9 ms (…)").
    static func appLaunchMs(_ step: StepRecord) -> Double? {
        guard let detail = step.detail else { return nil }
        let words = detail.split(separator: " ")
        guard let index = words.firstIndex(of: "in"), index + 1 < words.count else { return nil }
        return Double(words[index + 1])
    }
}
