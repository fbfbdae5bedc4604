import Chaos
import Foundation

/// The catalog's wall time, and recovery against store size: a scenario seeds N
/// favourites, corrupts the store while the app is closed, and relaunches; the
/// report's recovery time is what the seeds promise to keep within 5 s.
enum RecoveryBenchmark {
    static func run(chaos: String, sizes: [Int], rounds: Int) throws {
        let options = RunOptions(variant: "hardened", seed: nil, keepScratch: false, worker: .builtIn(chaos: chaos))
        print("The catalog (release build, \(rounds) rounds)")
        let scenarios = try ScenarioLoader.bundled()
        for jobs in [1, 2] {
            let times = Sample(values: (0..<rounds).map { _ in
                Double(SuiteRunner(options: options, command: "bench").run(scenarios, jobs: jobs).summary.durationMs) / 1000
            })
            line("  chaos run --all -j \(jobs) (\(scenarios.count) cases)", times.formatted("s", digits: 2) + " (goal ≤ 60 s)")
        }
        print("")
        print("Recovery against size (corrupted store → restored from backup; release build)")
        for size in sizes {
            let yaml = """
            name: recovery-\(size)
            summary: bench
            system: favorites
            timeout: 600s
            steps:
              - launch
              - do: favorites.seed
                with: { count: \(size) }
              - stop
              - launch
              - do: favorites.list
              - stop
              - fault: corrupt-file
                how: garbage-header
              - launch
              - do: favorites.list
            """
            let scenario = try ScenarioLoader.load(yaml: yaml, file: "recovery-\(size).yaml", baseDirectory: nil)
            var healthy: [Double] = []
            var recovery: [Double] = []
            for _ in 0..<rounds {
                let report = CaseRunner(scenario: scenario, options: options).run()
                let launches = report.steps.filter { $0.label == "launch" }
                if launches.count == 3, let detail = launches[1].detail,
                   let ms = detail.split(separator: " ").dropFirst(3).first.flatMap({ Double($0) }) {
                    healthy.append(ms)
                }
                if let ms = report.recoveryMs { recovery.append(Double(ms)) }
            }
            line("  \(size) favourites", "healthy launch \(Sample(values: healthy).formatted("ms", digits: 0)), "
                + "recovery \(Sample(values: recovery).formatted("ms", digits: 0)) (goal ≤ 5000 ms)")
        }
    }
}
