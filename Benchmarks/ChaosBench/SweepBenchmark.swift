import Chaos
import Foundation

/// Crash and I/O-fault trials per second: real `chaos explore` trials, each a case of
/// child processes, driven through the library with the `chaos` built beside this tool.
enum SweepBenchmark {
    static func run(rounds: Int, trials: Int) throws {
        let chaos = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("chaos").path
        guard FileManager.default.isExecutableFile(atPath: chaos) else {
            print("Sweeps: skipped — build the chaos executable first (\(chaos) is missing)")
            return
        }
        let worker = WorkerCommand(executable: chaos, arguments: ["worker"],
                                   environment: WorkerCommand.workerEnvironment(), targetName: RunInfo.builtInTarget)
        let options = RunOptions(variant: "hardened", seed: nil, keepScratch: false, worker: worker)
        print("Sweeps (\(trials) trials a round, \(rounds) rounds, hardened, release build)")
        for (kind, name) in [(Sweeper.Kind.crash, "power-loss-during-save"), (.io, "disk-full-on-save")] {
            let scenario = try ScenarioLoader.resolve(name)
            var rates: [Double] = []
            for _ in 0..<rounds {
                let sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: trials, seeds: 1)
                let outcome = sweeper.run()
                rates.append(Double(outcome.trials) / (Double(max(1, outcome.durationMs)) / 1000))
                if !outcome.failures.isEmpty { print("  (failures in the sweep: \(outcome.failures))") }
            }
            line("  \(kind.rawValue) trials per second (\(name))", Sample(values: rates).formatted("/s") + (kind == .crash ? "; goal ≥ 20" : ""))
        }
    }
}
