import ArgumentParser
import Chaos
import Foundation

struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Sweep every I/O operation or every crash point of a scenario's workload.",
        discussion: """
        --sweep io      fail the 1st, 2nd, ... Nth I/O operation, once and for
                        good, until a run completes with no fault fired
        --sweep crash   lose power at every write and sync, in each mode
                        (drop, keep, torn)

        Each trial runs in child processes and is judged on no-trap, integrity
        and preserved: acknowledged. The first failure printed is the minimal
        reproduction.

        Examples:
          chaos explore power-loss-during-save --sweep crash --limit 500
          chaos explore power-loss-during-save --sweep crash \\
              --option synchronous=off
          chaos explore disk-full-on-save --sweep io
          chaos explore Examples/Notes/scenarios/notes-save-fails.yaml \\
              --sweep crash --target-exec .build/debug/chaos-example-notes
        """)

    @Argument(help: "A bundled scenario name or a scenario file.")
    var scenario: String

    @Option(help: "io or crash.")
    var sweep: String

    @Option(help: "At most this many trials.")
    var limit: Int = 1_000

    @Option(help: "Crash sweeps: seeds per crash point and mode.")
    var seeds: Int = 1

    @Option(help: "Run only this trial (as printed by a failure), e.g. crash:after-writes:37:torn:2.")
    var trial: String?

    @OptionGroup var target: TargetOptions
    @OptionGroup var cases: CaseOptions

    @Option(name: [.customShort("j"), .long],
            help: "Run this many trials at once (default: one per core; the outcome is the same for any number).")
    var jobs: Int?

    @Option(help: "Run shard I of N of the sweep's points, e.g. 1/2 ('chaos report merge' joins the shards' reports).")
    var shard: String?

    @Option(help: "Where to write the report: the sweep's coverage and its failed trials.")
    var reportDir: String = "reports"

    /// Trials at a time: the outcome does not depend on it, so the default uses every core.
    var effectiveJobs: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    func validate() throws {
        guard Sweeper.Kind(rawValue: sweep) != nil else { throw ValidationError("--sweep must be io or crash, not '\(sweep)'") }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("-j must be from 1 to 64") }
        guard (1...100).contains(seeds) else { throw ValidationError("--seeds must be from 1 to 100") }
        if let shard, SuiteOptions.parseShard(shard) == nil { throw ValidationError("--shard wants I/N with 1 ≤ I ≤ N, e.g. 1/2; got '\(shard)'") }
        if let trial, SweepTrial(trial) == nil {
            throw ValidationError("--trial '\(trial)' is not a trial: io:N:transient|persistent or crash:after-writes|at-sync:N:drop|keep|torn:SEED")
        }
    }

    func run() throws {
        RunInterruption.install()
        try ReportOptions.prepare(reportDir)
        let choice = try target.resolve()
        let loaded = try CommandFailure.usage { try ScenarioLoader.resolve(scenario, in: choice.catalog) }
        try choice.check([loaded], options: cases.overrides)
        let options = cases.runOptions(choice)
        let kind = Sweeper.Kind(rawValue: sweep) ?? .io
        var sweeper = Sweeper(scenario: loaded, options: options, kind: kind, limit: limit, seeds: seeds)
        sweeper.jobs = effectiveJobs
        sweeper.shard = shard.flatMap(SuiteOptions.parseShard)
        printHeader(loaded, kind: kind, options: options)
        if let trial, let parsed = SweepTrial(trial) {
            let result = sweeper.runTrial(parsed)
            print("trial \(parsed): \(result.report.verdict.rawValue)\(result.fired ? "" : " (its fault never fired)")")
            RunConsole().event(.finished(result.report, scratch: nil))
            try write([result.report], sweep: nil, options: options, note: "(the trial)")
            if RunInterruption.requested { throw ExitCode(.interrupted) }
            if result.report.verdict != .passed { throw ExitCode(.failed) }
            return
        }
        let outcome = sweeper.run(progress: Self.progress(terminal: isatty(1) == 1))
        if isatty(1) == 1 { print("") }
        printOutcome(outcome, kind: kind)
        try write(outcome.failedReports, sweep: outcome.summary(kind: kind, scenario: loaded.name, shard: shard), options: options,
                  durationMs: outcome.durationMs)
        if outcome.interrupted || RunInterruption.requested { throw ExitCode(.interrupted) }
        if outcome.failures["errored"] != nil && outcome.failedTrials == outcome.failures["errored"] { throw ExitCode(.harnessError) }
        if !outcome.failures.isEmpty { throw ExitCode(.failed) }
        if outcome.nothingToSweep != nil { throw ExitCode(.failed) }
    }

    private func printHeader(_ scenario: Scenario, kind: Sweeper.Kind, options: RunOptions) {
        let optionText = options.optionOverrides.isEmpty ? ""
            : ", options " + options.optionOverrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let jobsText = (effectiveJobs > 1 ? ", \(effectiveJobs) trials at a time" : "") + (shard.map { ", shard \($0)" } ?? "")
        let seedText = "seed \(options.seed ?? scenario.seed)"
        print("chaos \(ChaosVersion.current) — explore \(scenario.name), \(kind.rawValue) sweep, \(seedText), variant \(options.variant), "
            + "target \(options.target.name)\(optionText)\(jobsText)")
    }

    /// A live count on a terminal, a line every 25 trials otherwise.
    private static func progress(terminal: Bool) -> Sweeper.Progress {
        { done, planned, failed, _ in
            let line = "  trials \(done)\(planned.map { "/\($0)" } ?? ""), failed \(failed)"
            if terminal {
                print("\r" + line, terminator: "")
                fflush(nil)
            } else if done % 25 == 0 {
                print(line)
                fflush(nil)
            }
        }
    }

    /// Trials, coverage, failures and the first failure's reproduction.
    private func printOutcome(_ outcome: Sweeper.Outcome, kind: Sweeper.Kind) {
        let covered = outcome.pointsTotal.map { "\(outcome.pointsCovered) of \($0)" } ?? "\(outcome.pointsCovered) (total not reached: raise --limit)"
        let unit = kind == .io ? "I/O operations" : "crash points"
        print("")
        print("\(outcome.trials) trials in \(String(format: "%.1f", Double(outcome.durationMs) / 1000)) s "
            + "(\(String(format: "%.1f", Double(outcome.trials) * 1000 / Double(max(1, outcome.durationMs)))) trials/s)")
        print("\(unit) covered: \(covered)")
        if let images = outcome.fromImages, images.trials > 0 {
            let whole = outcome.trials - images.trials
            print("from images: \(images.trials) trials judged from an image of their cut (\(images.launches) launches of the app on images)"
                + (whole > 0 ? "; \(whole) ran whole" : "") + " — docs/ARCHITECTURE.md, \"Crash trials from images\"")
        }
        if !outcome.slowest.isEmpty {
            print("slowest trials: " + outcome.slowest.map { "\($0.trial) \(String(format: "%.1f", Double($0.ms) / 1000)) s" }
                .joined(separator: ", "))
        }
        if outcome.idleTrials > 0 {
            print("\(outcome.idleTrials) trial\(outcome.idleTrials == 1 ? "" : "s") whose fault never fired (they cover nothing)")
        }
        if outcome.interrupted {
            print("interrupted after \(outcome.trials) trials: the sweep did not finish, and its coverage is partial")
        }
        if let nothing = outcome.nothingToSweep {
            print("inconclusive — \(nothing)")
        } else if outcome.failures.isEmpty {
            print("failures: none — 0 traps, 0 integrity failures, 0 lost acknowledged writes")
        } else {
            print("failures: " + outcome.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        }
        for (site, count) in outcome.trapSites.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            print("  trap at \(site) in \(count) trial\(count == 1 ? "" : "s")")
        }
        if let first = outcome.firstFailure {
            print("first failure: trial \(first.trial)")
            for failed in first.report.expectations where !failed.passed {
                print("  ✘ \(failed.label): expected \(failed.expected), saw \(failed.observed)")
            }
            if let error = first.report.error { print("  \(error)") }
            print("  reproduce: \(first.report.reproduce)")
        } else if let error = outcome.failedReports.first?.error {
            print("  \(error)")
        }
    }

    /// The report: the sweep's coverage, and a case for each failed trial.
    /// `durationMs`: the sweep's wall time (the report's cases are only its failed trials,
    /// whose durations would say 0 ms for a sweep that failed none).
    private func write(_ reports: [CaseReport], sweep: SweepSummary?, options: RunOptions, note: String = "(the failed trials)",
                       durationMs: Int? = nil) throws {
        var report = RunReport(run: RunInfo.now(options: options), cases: reports, durationMs: durationMs)
        report.sweep = sweep
        let written = try ReportSet.write(report, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)\(reports.isEmpty ? "" : " " + note)")
        if let archived = written.archived { print("the reports of the run before are now in \(archived.path)") }
    }
}
