import ArgumentParser
import Chaos
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and write JSON, HTML and JUnit reports.",
        discussion: """
        Examples:
          chaos run corrupted-db
          chaos run corrupted-db --seed 6745 --variant legacy
          chaos run --all -j 2 --report-dir reports
          chaos run --all --shard 1/2      (2/2 elsewhere; then 'chaos report merge')
          chaos run --all --baseline last-night/chaos-report.json
          chaos run my-scenario.yaml --keep
          NOTES=.build/debug/chaos-example-notes
          chaos run Examples/Notes/scenarios --target-exec $NOTES --variant fragile
        """)

    @Argument(help: "Names of the target's own scenarios, scenario files, or folders of them.")
    var scenarios: [String] = []

    @Flag(help: "Run every scenario of the target's own (see 'chaos list').")
    var all = false

    @OptionGroup var target: TargetOptions
    @OptionGroup var cases: CaseOptions
    @OptionGroup var suite: SuiteOptions
    @OptionGroup var output: ReportOptions

    func validate() throws {
        if all && !scenarios.isEmpty { throw ValidationError("give scenario names or --all, not both") }
        if !all && scenarios.isEmpty { throw ValidationError("name a scenario (see 'chaos list') or use --all") }
    }

    func run() throws {
        RunInterruption.install()
        try output.prepare()
        let choice = try target.resolve()
        var chosen = try CommandFailure.usage { all ? try choice.ownScenarios() : try ScenarioLoader.resolve(all: scenarios, in: choice.catalog) }
        let previous = try suite.previousReport()
        if let (index, count) = suite.shardIndex {
            chosen = SuiteRunner.shard(chosen, index: index, of: count)
        }
        try choice.check(chosen, options: cases.overrides)
        let options = cases.runOptions(choice)

        let console = RunConsole(toStandardError: output.json)
        console.header(seed: cases.seed, scenarios: chosen, variant: options.variant, target: options.target.name,
                       jobs: suite.jobs, shard: suite.shard)
        var report = SuiteRunner(options: options, command: CommandLine.arguments.joined(separator: " "))
            .run(chosen, jobs: suite.jobs) { console.event($0) }
        if let previous { Baseline.mark(&report, against: previous) }
        try output.finish(report, console: console)
    }
}
