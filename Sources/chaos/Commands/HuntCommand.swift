import ArgumentParser
import Chaos
import ChaosTarget
import Foundation

struct HuntCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hunt",
        abstract: "Generate fault schedules no one wrote, and shrink each failure to a scenario file to commit.",
        discussion: """
        A plain first run does each of the target's actions once, and notes the
        fault points its code hits. Then schedules are generated from the seed:
        launches, stops, kills and power cuts; the target's actions with seeded
        arguments; storage errors, a full disk, damaged files, clock jumps,
        network faults on its remotes, throws and context resets at the points
        it hit. Each is judged by the storage catalog's oracle: no trap, no
        silent loss, the store intact or no longer used, a read within 5 s of
        the last fault's clearing. The first schedule to fail each distinct way
        is shrunk to the fewest steps that still fail that way, written to
        REPORT-DIR/found/NAME.yaml, and run again from that file.

        Failures are told apart by cause: a trap by its site and the kind of
        error it reports, a hang by the fault that started it, a loss by the
        expectation and the faults at work. Each finding is shrunk until no
        step can be removed or made simpler (its file says "minimal"), run
        again a few times (its rate, "flaky" when it did not fail every time),
        and explained in a paragraph. A budget leaves each finding time to
        shrink; one cut short says so, and --shrink FILE goes on later.

        Schedules are guided: one whose run showed something no earlier one
        did (a fault point, a declared file a seam saw touched after a fault,
        an errno or SQLite code, an error the app answered, a log record, a
        storage mode, an end) joins a corpus, and most schedules after it are
        its mutations (a step added, dropped or swapped, a fault aimed at
        another file, operation or count, two spliced). --strategy random
        draws every schedule fresh, as a shard does.

        Each hunt draws a fresh seed and prints it first; --seed pins it. The
        same seed and --schedules N give the same findings, whatever -j (or
        say which were flaky). Shards (--shard I/N) take every Nth schedule;
        'chaos report merge' joins them into the whole hunt.

        Examples:
          chaos hunt --variant legacy --budget 5m -j 2
          chaos hunt --schedules 200 -j 2 --seed 7
          chaos hunt --target-exec .build/debug/chaos-example-notes \\
              --variant fragile --budget 2m
          chaos hunt --schedules 400 --shard 1/2 --report-dir shard1
          chaos hunt --shrink reports/found/hang-network-postgres.yaml \\
              --target-exec .build/debug/chaos-example-orders --variant fragile
        """)

    @OptionGroup var target: TargetOptions

    @Option(help: "The hunt's seed: every schedule, argument and firing comes from it (default: a fresh one, printed first).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Shrink a finding's file further (one a budget cut short) and write it again in place.", valueName: "file"))
    var shrink: String?

    @Option(help: "Stop after this long, shrinking included, e.g. 10m (default 10m unless --schedules is given).")
    var budget: String?

    @Option(help: "Run schedules 0 to N-1 (this shard's share of them).")
    var schedules: Int?

    @Option(help: "A target option KEY=VALUE for every launch (repeatable); options are not varied by the hunt.")
    var option: [String] = []

    @Option(name: [.customShort("j"), .long], help: "Run this many schedules at once (the findings are the same for any number).")
    var jobs: Int = 1

    @Option(help: "Run shard I of N of the schedules (every Nth index), e.g. 1/2; shards draw their schedules at random.")
    var shard: String?

    @Option(help: ArgumentHelp("How schedules are chosen: guided (mutate those that reached something new) or random (default: guided; random for a shard).",
                               valueName: "guided|random"))
    var strategy: HuntStrategy?

    @Flag(help: "Stop at the first schedule that fails, and shrink only that one.")
    var stopAtFirstFailure = false

    @Option(help: "Where to write the reports; findings go to its found/ folder.")
    var reportDir: String = "reports"

    var budgetDuration: Duration? {
        guard let budget else { return schedules == nil ? .seconds(600) : nil }
        return ScenarioDuration.parse(budget)
    }

    func validate() throws {
        if let budget, ScenarioDuration.parse(budget).map({ $0 > .zero }) != true {
            throw ValidationError("--budget wants a duration such as 90s, 10m or 1h; got '\(budget)'")
        }
        if let schedules, schedules < 1 { throw ValidationError("--schedules must be at least 1") }
        guard (1...64).contains(jobs) else { throw ValidationError("-j must be from 1 to 64") }
        if let shard, SuiteOptions.parseShard(shard) == nil { throw ValidationError("--shard wants I/N with 1 ≤ I ≤ N, e.g. 1/2; got '\(shard)'") }
        if shrink != nil, schedules != nil || shard != nil { throw ValidationError("--shrink takes a finding's file: no --schedules or --shard with it") }
        if shard != nil, strategy == .guided {
            throw ValidationError("--strategy guided needs the whole hunt (its corpus is every schedule's): shards draw their schedules at random")
        }
        try CaseOptions.parse(option.flatMap { ["--option", $0] }).validate()
    }

    func run() throws {
        RunInterruption.install()
        try ReportOptions.prepare(reportDir)
        let choice = try target.resolve()
        let cases = try CaseOptions.parse(option.flatMap { ["--option", $0] })
        try choice.check([], options: cases.overrides)
        let options = cases.runOptions(choice)
        // The run's seed itself: a fresh one each hunt unless --seed pins it (issue 30, as
        // TigerBeetle's VOPR does), printed first; everything after draws from it.
        let seed = self.seed ?? UInt64.random(in: 1...9_999_999)
        if let shrink { return try shrinkFile(shrink, options: options, seed: seed) }
        let found = (reportDir.hasSuffix("/") ? reportDir : reportDir + "/") + "found"
        var hunter = Hunter(options: options, seed: seed, foundDirectory: URL(fileURLWithPath: found), foundPath: found)
        hunter.schedules = schedules
        hunter.budget = budgetDuration
        hunter.jobs = jobs
        hunter.shard = shard.flatMap(SuiteOptions.parseShard)
        hunter.strategy = strategy ?? (shard == nil ? .guided : .random)
        hunter.stopAtFirstFailure = stopAtFirstFailure
        let console = HuntConsole()
        let bound = [schedules.map { "\($0) schedules" }, budgetDuration.map { "budget \(ScenarioDuration.format($0))" }].compactMap { $0 }
        // The seed first, as TigerBeetle's simulator prints it: the one thing needed to run this hunt again.
        let fresh: String = self.seed == nil ? " (fresh: --seed \(seed) runs this hunt again)" : ""
        let parallel: String = jobs > 1 ? ", \(jobs) at a time" : ""
        let sharded: String = shard.map { ", shard \($0)" } ?? ""
        print("chaos \(ChaosVersion.current) — hunt, seed \(seed)\(fresh), variant \(options.variant), target \(options.target.name), "
            + bound.joined(separator: ", ") + parallel + sharded + ", \(hunter.strategy.rawValue) schedules")
        let outcome: HuntOutcome
        do { outcome = try hunter.run(progress: console.show) } catch {
            throw CommandFailure("chaos hunt: \(error)", error.isUsage ? .usage : .harnessError)
        }
        console.summary(outcome)
        var report = RunReport(run: RunInfo.now(options: options), cases: outcome.cases, durationMs: outcome.durationMs)
        report.run.seed = seed
        report.hunt = outcome.summary(shard: shard)
        let written = try ReportSet.write(report, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        if outcome.interrupted || RunInterruption.requested { throw ExitCode(.interrupted) }
        if !outcome.findings.isEmpty { throw ExitCode(.failed) }
        if outcome.errored > 0 { throw ExitCode(.harnessError) }
    }
}

extension HuntCommand {
    /// `--shrink FILE`: the finding shrunk on within the budget, written again in place.
    func shrinkFile(_ path: String, options: RunOptions, seed: UInt64) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var hunter = Hunter(options: options, seed: seed, foundDirectory: folder, foundPath: (path as NSString).deletingLastPathComponent)
        hunter.budget = budgetDuration
        hunter.jobs = jobs
        let console = HuntConsole()
        print("chaos \(ChaosVersion.current) — shrinking \(path), variant \(options.variant), target \(options.target.name)"
            + (budgetDuration.map { ", budget \(ScenarioDuration.format($0))" } ?? ""))
        let result: (HuntFinding, CaseReport)?
        do { result = try hunter.shrink(file: url, progress: console.show) } catch {
            throw CommandFailure("chaos hunt: \(error)", error.isUsage ? .usage : .harnessError)
        }
        guard let (finding, case_) = result else {
            print("\(path) does not fail any more (run \(1 + HuntConfirmation.triesBefore) times): nothing to shrink; the file is left as it is.")
            return
        }
        var report = RunReport(run: RunInfo.now(options: options), cases: [case_], durationMs: finding.shrinkMs + (finding.confirmMs ?? 0))
        report.run.seed = seed
        let written = try ReportSet.write(report, to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        if RunInterruption.requested { throw ExitCode(.interrupted) }
        throw ExitCode(.failed)
    }
}

extension HuntStrategy: ExpressibleByArgument {}

extension Hunter.Problem {
    var isUsage: Bool {
        switch self {
        case .noWorkload, .badFile: true
        case .cannotWrite: false
        }
    }
}
