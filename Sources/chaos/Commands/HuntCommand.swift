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

        The same seed and --schedules N give the same findings, whatever -j.
        Shards (--shard I/N) take every Nth schedule; 'chaos report merge'
        joins them into the whole hunt.

        Examples:
          chaos hunt --variant legacy --budget 5m -j 2
          chaos hunt --schedules 200 -j 2 --seed 7
          chaos hunt --target-exec .build/debug/chaos-example-notes \\
              --variant fragile --budget 2m
          chaos hunt --schedules 400 --shard 1/2 --report-dir shard1
        """)

    @OptionGroup var target: TargetOptions

    @Option(help: "The hunt's seed: every schedule, argument and firing comes from it.")
    var seed: UInt64 = 1

    @Option(help: "Stop after this long, shrinking included, e.g. 10m (default 10m unless --schedules is given).")
    var budget: String?

    @Option(help: "Run schedules 0 to N-1 (this shard's share of them).")
    var schedules: Int?

    @Option(help: "A target option KEY=VALUE for every launch (repeatable); options are not varied by the hunt.")
    var option: [String] = []

    @Option(name: [.customShort("j"), .long], help: "Run this many schedules at once (the findings are the same for any number).")
    var jobs: Int = 1

    @Option(help: "Run shard I of N of the schedules (every Nth index), e.g. 1/2.")
    var shard: String?

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
        try CaseOptions.parse(option.flatMap { ["--option", $0] }).validate()
    }

    func run() throws {
        RunInterruption.install()
        try ReportOptions.prepare(reportDir)
        let choice = try target.resolve()
        let cases = try CaseOptions.parse(option.flatMap { ["--option", $0] })
        try choice.check([], options: cases.overrides)
        let options = cases.runOptions(choice)
        let found = (reportDir.hasSuffix("/") ? reportDir : reportDir + "/") + "found"
        var hunter = Hunter(options: options, seed: seed, foundDirectory: URL(fileURLWithPath: found), foundPath: found)
        hunter.schedules = schedules
        hunter.budget = budgetDuration
        hunter.jobs = jobs
        hunter.shard = shard.flatMap(SuiteOptions.parseShard)
        let console = HuntConsole()
        let bound = [schedules.map { "\($0) schedules" }, budgetDuration.map { "budget \(ScenarioDuration.format($0))" }].compactMap { $0 }
        print("chaos \(ChaosVersion.current) — hunt, seed \(seed), variant \(options.variant), target \(options.target.name), "
            + bound.joined(separator: ", ") + (jobs > 1 ? ", \(jobs) at a time" : "") + (shard.map { ", shard \($0)" } ?? ""))
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

extension Hunter.Problem {
    var isUsage: Bool {
        if case .noWorkload = self { return true }
        return false
    }
}
