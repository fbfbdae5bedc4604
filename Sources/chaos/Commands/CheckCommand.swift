import ArgumentParser
import Chaos
import Foundation

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run the storage catalog on a target: every fault a storage stack must survive, no scenario to write.",
        discussion: """
        The target declares its workload (a write action that acknowledges record keys, a
        read action); Chaos then damages its store every way it knows, fills its disk, fails
        its I/O at launch and while it saves, cuts the power, and sweeps its writes. Each
        case is judged by one oracle: no trap, no silent data loss (every acknowledged
        record kept, or the user told), the store intact or no longer used, the data read
        back within 5 s. Without --target-exec, the built-in app is checked.

        Examples:
          chaos check
          chaos check --variant legacy
          chaos check --target-exec .build/debug/chaos-example-notes --variant fragile
          chaos check --target-exec .build/debug/chaos-example-notes --variant fixed -j 2
          chaos check --only check-store-missing --target-exec .build/debug/chaos-example-notes --variant fixed
        """)

    @Option(help: "A target executable of your own (docs/TARGETS.md); default: the built-in app.")
    var targetExec: String?

    @Option(help: "hardened or legacy for the built-in app; a variant your own target knows with --target-exec.")
    var variant: String = "hardened"

    @Option(help: "Seed for every case (default: each scenario's own seed).")
    var seed: UInt64?

    @Option(help: "A target option KEY=VALUE (repeatable), e.g. synchronous=normal.")
    var option: [String] = []

    @Option(help: "Run only these cases of the catalog (repeatable), by name.")
    var only: [String] = []

    @Option(name: [.customShort("j"), .long], help: "Run this many cases at once.")
    var jobs: Int = 1

    @Option(help: "Run shard I of N (a stable partition by case name), e.g. 1/2.")
    var shard: String?

    @Option(help: "A previous run's chaos-report.json: mark each failure new or known, and each fix.")
    var baseline: String?

    @Option(help: "Where to write the reports.")
    var reportDir: String = "reports"

    @Flag(help: "Keep each case's scratch directory.")
    var keep = false

    @Flag(help: "Write the JSON report to stdout (the human output goes to stderr).")
    var json = false

    @Flag(help: "Exit 0 though a case was inconclusive (a fault had no effect the app could observe).")
    var allowInconclusive = false

    @Flag(help: "List the catalog's cases and exit.")
    var list = false

    func validate() throws {
        if targetExec == nil && !["hardened", "legacy"].contains(variant) {
            throw ValidationError("--variant must be hardened or legacy for the built-in app, not '\(variant)'")
        }
        guard (1...64).contains(jobs) else { throw ValidationError("-j must be from 1 to 64") }
        if let shard, RunCommand.parseShard(shard) == nil { throw ValidationError("--shard wants I/N with 1 ≤ I ≤ N, e.g. 1/2; got '\(shard)'") }
        for pair in option where !pair.contains("=") { throw ValidationError("--option wants KEY=VALUE, got '\(pair)'") }
    }

    func run() throws {
        let catalog: [Scenario]
        do { catalog = try CheckCatalog.scenarios() } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        let names = catalog.filter { $0.name != CheckCatalog.sweptScenario }.map(\.name) + StorageCheck.sweepNames
        if list {
            for name in names { print(name) }
            return
        }
        for name in only where !names.contains(name) {
            printError("chaos check: no case named '\(name)' in the catalog; see 'chaos check --list'")
            throw ExitCode(64)
        }
        let (worker, extras) = try RunCommand.worker(targetExec: targetExec)
        let ready: WorkerReady
        do { ready = try TargetDescription.read(worker, variant: variant) } catch {
            printError("chaos check: \(error)")
            throw ExitCode(2)
        }
        guard ready.workload != nil else {
            printError("chaos check: \(worker.targetName) declares no workload: add `static let workload: Workload? = "
                + "Workload(write: \"...\", read: \"...\")` to its ChaosTarget (docs/TARGETS.md)")
            throw ExitCode(64)
        }
        try runCatalog(worker: worker, extras: extras, names: names)
    }

    private func runCatalog(worker: WorkerCommand, extras: [String], names: [String]) throws {
        var options = RunOptions(variant: variant, seed: seed, keepScratch: keep, worker: worker, reproduceExtras: extras)
        options.optionOverrides = RunCommand.parseOptions(option)
        options.reproducePrefix = ["chaos", "check", "--only"]
        var check = StorageCheck(options: options, command: CommandLine.arguments.joined(separator: " "))
        check.jobs = jobs
        check.shard = shard.flatMap(RunCommand.parseShard)
        check.only = Set(only)
        RunInterruption.install()
        let console = RunConsole(toStandardError: json)
        console.header(seed: seed, scenarios: [], variant: variant, target: worker.targetName, jobs: jobs, shard: shard,
                       count: only.isEmpty ? names.count : only.count)
        var report: RunReport
        do { report = try check.run { console.event($0) } } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        if let baseline {
            guard let previous = try? JSONReportWriter.read(from: URL(fileURLWithPath: baseline)) else {
                printError("chaos check: --baseline \(baseline): not a chaos report")
                throw ExitCode(64)
            }
            Baseline.mark(&report, against: previous)
        }
        try RunCommand.finish(report, reportDir: reportDir, console: console, json: json, allowInconclusive: allowInconclusive)
    }
}
