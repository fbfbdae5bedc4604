import Chaos
import Foundation

/// `chaos hunt` on the legacy app, release build, through the library with the `chaos`
/// built beside this tool: schedules and worker launches per second at -j (cores), the
/// time from the first failure to its shrunk scenario, and the shrink ratio (steps
/// before / after, over every finding). One hunt of `schedules` schedules of seed 1 a
/// round; its findings are written to a scratch folder and removed.
enum HuntBenchmark {
    static func run(chaos: String, rounds: Int, schedules: Int) throws {
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "legacy"), seed: nil, keepScratch: false)
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        print("Hunt (legacy, release build, seed 1, \(schedules) schedules, budget 150 s, -j \(jobs), \(rounds) rounds)")
        var perSecond: [Double] = [], launches: [Double] = [], toShrunk: [Double] = [], ratio: [Double] = []
        var findings = 0
        for _ in 0..<rounds {
            let found = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-hunt-\(getpid())")
            defer { try? FileManager.default.removeItem(at: found) }
            var hunter = Hunter(options: options, seed: 1, foundDirectory: found, foundPath: found.path)
            hunter.schedules = schedules
            hunter.budget = .seconds(150)  // shrinking bounded: a round takes at most this
            hunter.jobs = jobs
            var firstFailureToShrunk: Double?
            var firstSeen: ContinuousClock.Instant?
            let outcome = try hunter.run { progress in
                switch progress {
                case .shrinking: firstSeen = firstSeen ?? .now
                case .found: if firstFailureToShrunk == nil, let firstSeen { firstFailureToShrunk = (ContinuousClock.now - firstSeen).inSeconds }
                default: break
                }
            }
            let seconds = Double(max(1, outcome.runMs)) / 1000
            perSecond.append(Double(outcome.schedules) / seconds)
            launches.append(Double(outcome.launches) / seconds)
            if let firstFailureToShrunk { toShrunk.append(firstFailureToShrunk) }
            let before = outcome.findings.reduce(0) { $0 + $1.stepsBefore }, after = outcome.findings.reduce(0) { $0 + $1.stepsAfter }
            if after > 0 { ratio.append(Double(before) / Double(after)) }
            findings = outcome.findings.count
        }
        let figures: [(String, String, Sample)] = [
            ("hunt schedules per second, -j \(jobs)", "/s", Sample(values: perSecond)),
            ("hunt worker launches per second, -j \(jobs)", "/s", Sample(values: launches)),
            ("hunt first failure to its shrunk scenario", "s", Sample(values: toShrunk)),
            ("hunt shrink ratio, steps before / after", "×", Sample(values: ratio)),
        ]
        for (name, unit, sample) in figures where !sample.values.isEmpty {
            line("  \(name)", sample.formatted(unit))
            BenchFigures.record(name, unit: unit, sample)
        }
        line("  distinct failures found", "\(findings)")
    }
}
