import Chaos
import Foundation

/// How good Chaos is at its job, measured on defects written to pass it (issue 45): for
/// each planted defect, found by `chaos check`? by a 2-minute random hunt? by a 2-minute
/// guided hunt? and each hunt's time to its first finding. Release build, -j 2, seed 1;
/// a hunt stops at its first finding (what "found in 2 minutes" asks). A defect no hunt
/// found counts the whole budget in the medians: a miss is never faster than a find.
enum DefectsBenchmark {
    static let budget: Duration = .seconds(120)
    static let jobs = 2

    struct Row: Encodable {
        var defect: String
        var target: String
        var variant: String
        var family: String
        var check: Bool
        var randomMs: Int?
        var guidedMs: Int?
    }

    static func run(chaos: String) throws {
        let (defects, unbuilt) = PlantedDefect.all()
        print("Planted defects (\(HuntBenchmark.buildKind) build, -j \(jobs), hunts of \(Int(budget.inSeconds)) s at seed 1, each to its first finding)")
        if !unbuilt.isEmpty { line("  not built (scripts/bench-defects.sh)", unbuilt.joined(separator: ", ")) }
        var rows: [Row] = []
        // Ctrl-C or a kill ends the hunt under way as `chaos hunt` ends it (its workers
        // stopped, their files and shared memory removed), and the bench with it.
        RunInterruption.install()
        for defect in defects {
            let found = try check(defect, chaos: chaos)
            let random = try hunt(defect, chaos: chaos, strategy: .random)
            let guided = try hunt(defect, chaos: chaos, strategy: .guided)
            // A hunt cut short measured nothing: its row is not kept.
            guard !RunInterruption.requested else { throw Interrupted() }
            let row = Row(defect: defect.name, target: defect.target, variant: defect.variant, family: defect.family,
                          check: found, randomMs: random, guidedMs: guided)
            rows.append(row)
            line("  \(defect.name)", "check \(found ? "found" : "–"), random \(words(random)), guided \(words(guided))")
        }
        BenchFigures.defects = rows
        summarize(rows)
    }

    struct Interrupted: Error, CustomStringConvertible {
        var description: String { "interrupted: the defects measured so far are not written" }
    }

    private static func words(_ ms: Int?) -> String {
        ms.map { String(format: "%.1f s", Double($0) / 1000) } ?? "–"
    }

    /// `chaos check` on the defect's executable: exit 1 (some case deviated) is found.
    private static func check(_ defect: PlantedDefect, chaos: String) throws -> Bool {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-defects-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chaos)
        process.arguments = ["check", "--target-exec", defect.executable, "--variant", defect.variant, "-j", "\(jobs)", "--seed", "1",
                             "--report-dir", scratch.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 1
    }

    /// A hunt of the defect's executable to its first finding: the milliseconds it took,
    /// nil when the budget ran out first.
    private static func hunt(_ defect: PlantedDefect, chaos: String, strategy: HuntStrategy) throws -> Int? {
        let found = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-defects-hunt-\(getpid())")
        defer { try? FileManager.default.removeItem(at: found) }
        let options = RunOptions(target: try TargetSelection.userTarget(at: defect.executable, variant: defect.variant), seed: nil, keepScratch: false)
        var hunter = Hunter(options: options, seed: 1, foundDirectory: found, foundPath: found.path)
        hunter.budget = budget
        hunter.jobs = jobs
        hunter.strategy = strategy
        hunter.stopAtFirstFailure = true
        let outcome = try hunter.run { _ in }
        return outcome.findings.isEmpty ? nil : outcome.firstFailureMs
    }

    /// The issue's goals, each printed beside its figure.
    private static func summarize(_ rows: [Row]) {
        guard !rows.isEmpty else { return }
        let total = Double(rows.count)
        let checkGuided = rows.filter { $0.check || $0.guidedMs != nil }.count
        let checkRandom = rows.filter { $0.check || $0.randomMs != nil }.count
        let byCheck = rows.filter(\.check).count
        let budgetMs = Int(budget.inSeconds * 1000)
        let hunted = rows.filter { $0.randomMs != nil || $0.guidedMs != nil }
        let guidedTimes = hunted.map { Double($0.guidedMs ?? budgetMs) / 1000 }
        let randomTimes = hunted.map { Double($0.randomMs ?? budgetMs) / 1000 }
        let missedByGuided = rows.filter { $0.randomMs != nil && $0.guidedMs == nil }.map(\.defect)
        line("  found by chaos check", "\(byCheck) of \(rows.count)")
        line("  found by check + random hunt", "\(checkRandom) of \(rows.count)")
        let share = Double(checkGuided) / total * 100
        line("  found by check + guided hunt", "\(checkGuided) of \(rows.count), \(Int(share.rounded())) % (goal ≥ 90 %: \(share >= 90 ? "met" : "NOT met"))")
        BenchFigures.record("defects: found by check + guided hunt", unit: "%", Sample(values: [share]), goal: "≥ 90 %")
        BenchFigures.record("defects: found by check + random hunt", unit: "%", Sample(values: [Double(checkRandom) / total * 100]))
        BenchFigures.record("defects: found by check", unit: "%", Sample(values: [Double(byCheck) / total * 100]))
        if !hunted.isEmpty {
            let guided = Sample(values: guidedTimes), random = Sample(values: randomTimes)
            let ratio = guided.median / max(random.median, 0.001)
            line("  median time to first finding, guided", guided.formatted("s", digits: 1))
            line("  median time to first finding, random", random.formatted("s", digits: 1))
            line("  guided / random", String(format: "%.2f (goal ≤ 0.33: %@)", ratio, ratio <= 1.0 / 3 ? "met" : "NOT met"))
            BenchFigures.record("defects: median time to first finding, guided hunt", unit: "s", guided, goal: "≤ ⅓ of random's",
                                peer: ("random hunt", random))
        }
        line("  found by random, not by guided", missedByGuided.isEmpty ? "none (goal: none: met)" : missedByGuided.joined(separator: ", ") + " (goal: none: NOT met)")
        if let fsync = rows.first(where: { $0.defect == "todos-retries-fsync" }) {
            line("  Todos retries-fsync, guided, no scenario", fsync.guidedMs.map { "found in \(words($0)) (goal ≤ 120 s: met)" } ?? "not found (goal ≤ 120 s: NOT met)")
        }
    }
}
