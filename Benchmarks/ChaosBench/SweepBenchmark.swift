import Chaos
import Foundation

/// Crash and I/O-fault trials per second: real `chaos explore` trials, each a case of
/// child processes, driven through the library with the `chaos` built beside this tool.
/// The crash sweep is the whole sweep of `power-loss-during-save`, on the machine as it
/// is ("idle") and beside one busy process at the same priority ("loaded": a CI
/// machine's neighbour), as the gate issue asks: ≥ 80 /s idle, ≥ 50 loaded, at -j 2.
enum SweepBenchmark {
    static func run(chaos: String, rounds: Int, trials: Int) throws {
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: false)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Sweeps (hardened, release build; crash: the whole sweep, \(rounds) rounds; io: \(trials) trials a round)")
        let crash = try ScenarioLoader.resolve("power-loss-during-save", in: options.target.catalog)
        for jobs in Array(Set([1, cores])).sorted() {
            let idle = try rates(crash, options: options, kind: .crash, limit: 10_000, jobs: jobs, rounds: rounds)
            line("  crash trials per second, -j \(jobs), idle", idle.formatted("/s") + (jobs == cores ? " (goal ≥ 80)" : ""))
            BenchFigures.record("crash trials per second, -j \(jobs), idle", unit: "/s", idle, goal: jobs == cores ? "≥ 80" : nil)
        }
        let hog = try BusyProcess()
        let loaded = try rates(crash, options: options, kind: .crash, limit: 10_000, jobs: cores, rounds: rounds)
        hog.stop()
        line("  crash trials per second, -j \(cores), loaded", loaded.formatted("/s") + " (goal ≥ 50; one busy process beside)")
        BenchFigures.record("crash trials per second, -j \(cores), one busy process beside", unit: "/s", loaded, goal: "≥ 50")
        let io = try ScenarioLoader.resolve("disk-full-on-save", in: options.target.catalog)
        for jobs in Array(Set([1, cores])).sorted() {
            let sample = try rates(io, options: options, kind: .io, limit: trials, jobs: jobs, rounds: rounds)
            line("  io trials per second, -j \(jobs)", sample.formatted("/s"))
            BenchFigures.record("io trials per second, -j \(jobs)", unit: "/s", sample)
        }
    }

    private static func rates(_ scenario: Scenario, options: RunOptions, kind: Sweeper.Kind, limit: Int, jobs: Int,
                              rounds: Int) throws -> Sample {
        var rates: [Double] = []
        for _ in 0..<rounds {
            var sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: limit, seeds: 1)
            sweeper.jobs = jobs
            let outcome = sweeper.run()
            rates.append(Double(outcome.trials) / (Double(max(1, outcome.durationMs)) / 1000))
            if !outcome.failures.isEmpty { print("  (failures in the sweep: \(outcome.failures))") }
        }
        return Sample(values: rates)
    }
}

/// One process that keeps a core busy (a shell loop), until stopped.
final class BusyProcess {
    private let child: ChildProcess
    private let log: URL

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-bench-busy-\(getpid())")
        child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "while :; do :; done"],
                                 environment: [:], stderrFile: log)
    }

    func stop() {
        child.killTree()
        _ = child.waitForExit()
        try? FileManager.default.removeItem(at: log)
    }
}
