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
          chaos run --all --shard 1/2          (and 2/2 on another machine; then 'chaos report merge')
          chaos run --all --baseline last-night/chaos-report.json
          chaos run my-scenario.yaml --keep
          chaos run notes-fragile.yaml --target-exec .build/debug/chaos-example-notes --variant fragile
        """)

    @Argument(help: "Bundled scenario names or scenario files.")
    var scenarios: [String] = []

    @Flag(help: "Run every bundled scenario.")
    var all = false

    @Option(help: "Seed for every case (default: each scenario's own seed).")
    var seed: UInt64?

    @Option(help: "hardened or legacy for the built-in app; a variant your own target knows with --target-exec.")
    var variant: String = "hardened"

    @Option(help: "Where to write the reports.")
    var reportDir: String = "reports"

    @Flag(help: "Keep each case's scratch directory (store files, quarantine, worker logs) and print its path.")
    var keep = false

    @Option(help: "A target executable of your own that speaks the worker protocol (docs/TARGETS.md).")
    var targetExec: String?

    @Option(name: [.customShort("j"), .long], help: "Run this many cases at once.")
    var jobs: Int = 1

    @Option(help: "Run shard I of N (a stable partition by scenario name), e.g. 1/2.")
    var shard: String?

    @Option(help: "A previous run's chaos-report.json: mark each failure new or known, and each fix.")
    var baseline: String?

    @Option(help: "A target option KEY=VALUE overriding the scenarios' own (repeatable), e.g. synchronous=normal.")
    var option: [String] = []

    @Flag(help: "Write the JSON report to stdout (the human output goes to stderr).")
    var json = false

    @Flag(help: "Exit 0 though a case was inconclusive (a fault had no effect the app could observe).")
    var allowInconclusive = false

    func validate() throws {
        if all && !scenarios.isEmpty { throw ValidationError("give scenario names or --all, not both") }
        if !all && scenarios.isEmpty { throw ValidationError("name a scenario (see 'chaos list') or use --all") }
        if targetExec == nil && !["hardened", "legacy"].contains(variant) {
            throw ValidationError("--variant must be hardened or legacy, not '\(variant)'")
        }
        guard (1...64).contains(jobs) else { throw ValidationError("-j must be from 1 to 64") }
        if let shard, Self.parseShard(shard) == nil { throw ValidationError("--shard wants I/N with 1 ≤ I ≤ N, e.g. 1/2; got '\(shard)'") }
        for pair in option where !pair.contains("=") { throw ValidationError("--option wants KEY=VALUE, got '\(pair)'") }
    }

    static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { return nil }
        return (parts[0], parts[1])
    }

    func run() throws {
        var chosen: [Scenario]
        do {
            chosen = all ? try ScenarioLoader.bundled() : try scenarios.map { try ScenarioLoader.resolve($0) }
        } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        var previous: RunReport?
        if let baseline {
            do {
                previous = try JSONReportWriter.read(from: URL(fileURLWithPath: baseline))
            } catch {
                printError("chaos: --baseline \(baseline): \(error)")
                throw ExitCode(64)
            }
        }
        if let shard, let (index, count) = Self.parseShard(shard) {
            chosen = SuiteRunner.shard(chosen, index: index, of: count)
        }
        let (worker, extras) = try Self.worker(targetExec: targetExec)
        var options = RunOptions(variant: variant, seed: seed, keepScratch: keep, worker: worker, reproduceExtras: extras)
        options.optionOverrides = Self.parseOptions(option)
        RunInterruption.install()

        let console = RunConsole(toStandardError: json)
        console.header(seed: seed, scenarios: chosen, variant: variant, target: worker.targetName, jobs: jobs, shard: shard)
        var report = SuiteRunner(options: options, command: CommandLine.arguments.joined(separator: " "))
            .run(chosen, jobs: jobs) { console.event($0) }
        if let previous { Baseline.mark(&report, against: previous) }

        try Self.finish(report, reportDir: reportDir, console: console, json: json, allowInconclusive: allowInconclusive)
    }

    /// Writes the reports, prints where they are (and the JSON on stdout with --json),
    /// and exits as the report says.
    static func finish(_ report: RunReport, reportDir: String, console: RunConsole, json: Bool, allowInconclusive: Bool) throws {
        let directory = URL(fileURLWithPath: reportDir)
        do {
            let written = try ReportSet.write(report, to: directory)
            console.footer(report, html: written.html.path, json: written.json.path, junit: written.junit.path)
        } catch {
            console.footer(report, html: nil, json: nil, junit: nil)
            printError("chaos: could not write the reports to \(directory.path): \(error)")
            throw ExitCode(2)
        }
        if json, let data = try? JSONReportWriter.data(report) {
            FileHandle.standardOutput.write(data)
        }
        let code = report.exitCode(allowingInconclusive: allowInconclusive)
        if code != 0 { throw ExitCode(code) }
    }

    /// The worker to start: the built-in one, or the user's target executable.
    static func worker(targetExec: String?) throws -> (WorkerCommand, extras: [String]) {
        guard let targetExec else { return (builtInWorker, []) }
        let path = URL(fileURLWithPath: targetExec).standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            printError("chaos: --target-exec: no executable at \(path)")
            throw ExitCode(64)
        }
        let worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment(), targetName: path)
        return (worker, ["--target-exec", path])
    }

    static func parseOptions(_ pairs: [String]) -> [String: String] {
        var options: [String: String] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            options[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return options
    }

    /// The built-in target: this executable's hidden `worker` subcommand.
    static var builtInWorker: WorkerCommand {
        WorkerCommand.builtIn(chaos: selfExecutable)
    }

    /// This executable's own path: the built-in worker is `chaos worker`.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
