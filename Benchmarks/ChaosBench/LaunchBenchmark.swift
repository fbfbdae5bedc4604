import Chaos
import Foundation

/// A healthy launch, hardened against legacy, at several store sizes, same run: what
/// the hardening costs every start-up (seed 000, NFR-2: error handling must not
/// impact start-up time). Each case seeds the store once, then relaunches it on a
/// sound store; the launch time is the app's own (`launch` step: "mode … in N ms").
enum LaunchBenchmark {
    static let relaunches = 5

    static func run(chaos: String, sizes: [Int]) throws {
        print("Healthy launch, hardened against legacy (release build, \(relaunches) relaunches of a sound store a case)")
        for size in sizes {
            var samples: [String: [Double]] = [:]
            // Legacy first for one size, hardened first for the next: neither always warm.
            let order = size % 2 == 0 ? ["hardened", "legacy"] : ["legacy", "hardened"]
            for variant in order {
                samples[variant] = try launches(chaos: chaos, variant: variant, size: size)
            }
            let hardened = Sample(values: samples["hardened"] ?? [])
            let legacy = Sample(values: samples["legacy"] ?? [])
            let allowed = legacy.median * 1.2 + 2
            line("  \(size) favourites", "hardened \(hardened.formatted("ms", digits: 1))")
            line("", "legacy \(legacy.formatted("ms", digits: 1))")
            line("", String(format: "goal ≤ 1.2 × legacy + 2 ms = %.1f ms: %@", allowed, hardened.median <= allowed ? "met" : "NOT met"))
            BenchFigures.record("healthy launch, \(size) favourites, hardened", unit: "ms", hardened,
                                goal: String(format: "≤ %.1f ms (1.2 × legacy + 2 ms)", allowed), peer: ("legacy", legacy))
        }
    }

    /// The app's own launch times, relaunch after relaunch of a store of `size` favourites.
    static func launches(chaos: String, variant: String, size: Int) throws -> [Double] {
        let scenario = try BenchScenario.seeded("launch-\(size)", size: size,
                                                then: String(repeating: "  - launch\n  - stop\n", count: relaunches))
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: variant), seed: nil, keepScratch: false)
        let report = CaseRunner(scenario: scenario, options: options).run()
        return report.steps.filter { $0.label == "launch" }.dropFirst().compactMap(RecoveryBenchmark.appLaunchMs)
    }
}
