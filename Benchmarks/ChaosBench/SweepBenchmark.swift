import Chaos
import Foundation

/// Crash and I/O-fault trials per second: real `chaos explore` trials, each a case of
/// child processes, driven through the library with the `chaos` built beside this tool.
/// The crash sweep is the whole sweep of `power-loss-during-save`, on the machine as it
/// is ("idle") and beside one busy process at the same priority ("loaded": a CI
/// machine's neighbour): ≥ 150 /s idle at -j 2 (issue 33), ≥ 50 loaded (the gate issue).
/// Then every sweep of the catalog, the slowest first (issue 33: every one ≥ 50 /s).
enum SweepBenchmark {
    static func run(chaos: String, rounds: Int, trials: Int) throws {
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: false)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Sweeps (hardened, release build; crash: the whole sweep, \(rounds) rounds; io: \(trials) trials a round)")
        let crash = try ScenarioLoader.resolve("power-loss-during-save", in: options.target.catalog)
        for jobs in Array(Set([1, cores])).sorted() {
            let idle = try rates(crash, options: options, kind: .crash, limit: 10_000, jobs: jobs, rounds: rounds)
            line("  crash trials per second, -j \(jobs), idle", idle.formatted("/s") + (jobs == cores ? " (goal ≥ 150)" : ""))
            BenchFigures.record("crash trials per second, -j \(jobs), idle", unit: "/s", idle, goal: jobs == cores ? "≥ 150" : nil)
        }
        let hog = try BusyProcess()
        let loaded = try rates(crash, options: options, kind: .crash, limit: 10_000, jobs: cores, rounds: rounds)
        hog.stop()
        line("  crash trials per second, -j \(cores), loaded", loaded.formatted("/s") + " (goal ≥ 50; one busy process beside)")
        BenchFigures.record("crash trials per second, -j \(cores), one busy process beside", unit: "/s", loaded, goal: "≥ 50")
        let io = try ScenarioLoader.resolve("disk-full-on-save", in: options.target.catalog)
        for jobs in Array(Set([1, cores])).sorted() {
            let sample = try rates(io, options: options, kind: .io, limit: trials, jobs: jobs, rounds: rounds)
            line("  io trials per second, -j \(jobs)", sample.formatted("/s") + (jobs == cores ? " (goal ≥ 50)" : ""))
            BenchFigures.record("io trials per second, -j \(jobs)", unit: "/s", sample, goal: jobs == cores ? "≥ 50" : nil)
        }
    }

    /// Every io and crash sweep of the catalog, at most `limit` trials each at -j (cores),
    /// once: the five slowest, and the slowest as the figure (a sweep of nothing — no
    /// operation of the store in its workload — is left out: it has no rate).
    static func catalog(chaos: String, limit: Int) throws {
        let options = RunOptions(target: try TargetSelection.builtIn(chaos: chaos, variant: "hardened"), seed: nil, keepScratch: false)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("Every sweep of the catalog (hardened, release build; at most \(limit) trials each, -j \(cores))")
        var rates: [(name: String, rate: Double, split: String)] = []
        for name in options.target.catalog?.names ?? [] {
            let scenario = try ScenarioLoader.resolve(name, in: options.target.catalog)
            for kind in Sweeper.Kind.allCases {
                var sweeper = Sweeper(scenario: scenario, options: options, kind: kind, limit: limit, seeds: 1)
                sweeper.jobs = cores
                var time = TrialTime()
                let outcome = sweeper.run { _, _, _, report in time.add(report) }
                guard outcome.trials > 0, outcome.nothingToSweep == nil else { continue }
                rates.append(("\(name) --sweep \(kind.rawValue)", Double(outcome.trials) / (Double(max(1, outcome.durationMs)) / 1000),
                              time.whereItGoes(jobs: cores)))
            }
        }
        rates.sort { $0.rate < $1.rate }
        let below = rates.filter { $0.rate < 50 }
        print("  below 50 trials a second, slowest first (a trial's time in ms: in the scenario's steps + the rest;")
        print("  the ceiling the steps alone allow, \(cores) at a time):")
        for sweep in below { line("    \(sweep.name)", String(format: "%.1f /s  ", sweep.rate) + sweep.split) }
        guard let slowest = rates.first else { return }
        line("  sweeps at 50 trials a second or more", "\(rates.filter { $0.rate >= 50 }.count) of \(rates.count)")
        line("  the slowest of \(rates.count) sweeps", String(format: "%.1f /s (goal ≥ 50)", slowest.rate))
        BenchFigures.record("the slowest catalog sweep (\(slowest.name)), trials per second", unit: "/s",
                            Sample(values: [slowest.rate]), goal: "≥ 50")
    }

    /// The sweep's trials' cases' time, and its scenario's steps' in it (launches, actions,
    /// stops, faults), summed from each trial's report: the rest is setting up, the
    /// evidence and tearing down.
    struct TrialTime {
        var trials = 0, caseMs = 0, stepMs = 0

        mutating func add(_ report: CaseReport) {
            trials += 1
            caseMs += report.durationMs
            stepMs += report.steps.reduce(0) { $0 + $1.durationMs }
        }

        /// A trial's time, on average: in the scenario's steps (the app's launches, actions
        /// and stops: the app's own time, with its process's start and end) and the rest (the
        /// case's setting up, its evidence — a relaunch for the final snapshot — and tearing
        /// down), and the rate the steps alone would allow `jobs` at a time: the most any
        /// controller could get from this app (a trial whose steps wait gives its place up,
        /// so a sweep of waits may pass it).
        func whereItGoes(jobs: Int) -> String {
            guard trials > 0 else { return "" }
            let steps = Double(stepMs) / Double(trials)
            let rest = Double(caseMs - stepMs) / Double(trials)
            let most = Double(jobs) * 1000 / max(1, steps)
            let ceiling = String(format: most < 10 ? "%.2f /s" : "%.0f /s", most)
            return String(format: "%.0f + %.0f ms, ceiling %@", steps, rest, ceiling)
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
