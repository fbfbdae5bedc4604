import Chaos
import Foundation

/// Crash and I/O-fault trials per second: real `chaos explore` trials, each a case of
/// child processes, driven through the library with the `chaos` built beside this tool.
enum SweepBenchmark {
    static func run(chaos: String, rounds: Int, trials: Int) throws {
        let options = RunOptions(variant: "hardened", seed: nil, keepScratch: false, worker: .builtIn(chaos: chaos))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Sweeps (\(trials) trials a round, \(rounds) rounds, hardened, release build)")
        for (kind, name) in [(Sweeper.Kind.crash, "power-loss-during-save"), (.io, "disk-full-on-save")] {
            let scenario = try ScenarioLoader.resolve(name)
            for jobs in Array(Set([1, cores])).sorted() {
                var rates: [Double] = []
                for _ in 0..<rounds {
                    var sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: trials, seeds: 1)
                    sweeper.jobs = jobs
                    let outcome = sweeper.run()
                    rates.append(Double(outcome.trials) / (Double(max(1, outcome.durationMs)) / 1000))
                    if !outcome.failures.isEmpty { print("  (failures in the sweep: \(outcome.failures))") }
                }
                line("  \(kind.rawValue) trials per second, -j \(jobs)", Sample(values: rates).formatted("/s")
                    + (kind == .crash ? " (goal ≥ 20)" : ""))
            }
        }
    }
}
