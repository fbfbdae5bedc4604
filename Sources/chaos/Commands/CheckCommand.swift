import ArgumentParser
import Chaos
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run the storage catalog on a target: every fault a storage stack must survive, no scenario to write.",
        discussion: """
        The target declares its workload (a write action that acknowledges record
        keys, a read action); Chaos then damages its store every way it knows,
        fills its disk, fails its I/O at launch and while it saves, cuts the power,
        and sweeps its writes. Each case is judged by one oracle: no trap, no silent
        data loss (every acknowledged record kept, or the user told), the store
        intact or no longer used, the data read back within 5 s. Without
        --target-exec, the built-in app is checked.

        Examples:
          chaos check
          chaos check --variant legacy
          NOTES=.build/debug/chaos-example-notes
          chaos check --target-exec $NOTES --variant fragile
          chaos check --target-exec $NOTES --variant fixed -j 2
          chaos check --target-exec $NOTES --only check-store-missing
        """)

    @OptionGroup var target: TargetOptions
    @OptionGroup var cases: CaseOptions

    @Option(help: "Run only these cases of the catalog (repeatable), by name.")
    var only: [String] = []

    @OptionGroup var suite: SuiteOptions
    @OptionGroup var output: ReportOptions

    @Flag(help: "List the catalog's cases and exit.")
    var list = false

    func run() throws {
        RunInterruption.install()
        let choice = try target.resolve()
        // The catalog as it applies to this target: network cases only for one with a remote.
        let catalog = try CommandFailure.usage { try CheckCatalog.scenarios(for: choice.declaration) }.filter { CheckCatalog.applies($0, to: choice.declaration) }
        let names = StorageCheck.caseNames(of: catalog)
        if list {
            for name in names { print(name) }
            return
        }
        for name in only where !names.contains(name) {
            let hint = ClosestName.suggestion(for: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw CommandFailure("chaos check: no case named '\(name)' in the catalog for this target\(hint); see 'chaos check --list'", .usage)
        }
        try output.prepare()
        try choice.check([], options: cases.overrides)
        let options = cases.runOptions(choice)
        guard choice.declaration.workload != nil else {
            throw CommandFailure("chaos check: \(options.target.name) declares no workload: add `static let workload: Workload? = "
                + "Workload(write: \"...\", read: \"...\")` to its ChaosTarget (docs/TARGETS.md)", .usage)
        }
        try runCatalog(catalog, options, count: only.isEmpty ? names.count : only.count)
    }

    private func runCatalog(_ catalog: [Scenario], _ options: RunOptions, count: Int) throws {
        var check = StorageCheck(catalog: catalog, options: options, command: CommandLine.arguments.joined(separator: " "))
        check.jobs = suite.jobs
        check.shard = suite.shardIndex
        check.only = Set(only)
        let previous = try suite.previousReport()
        let console = RunConsole(toStandardError: output.json)
        console.header(seed: cases.seed, scenarios: [], variant: options.variant, target: options.target.name,
                       jobs: suite.jobs, shard: suite.shard, count: count)
        var report = check.run { console.event($0) }
        if let previous { Baseline.mark(&report, against: previous) }
        try output.finish(report, console: console)
    }
}
