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
          chaos run --all --report-dir reports
          chaos run my-scenario.yaml --keep
        """)

    @Argument(help: "Bundled scenario names or scenario files.")
    var scenarios: [String] = []

    @Flag(help: "Run every bundled scenario.")
    var all = false

    @Option(help: "Seed for every case (default: each scenario's own seed).")
    var seed: UInt64?

    @Option(help: "hardened or legacy: which build of the built-in app to run.")
    var variant: String = "hardened"

    @Option(help: "Where to write the reports.")
    var reportDir: String = "reports"

    @Flag(help: "Keep each case's scratch directory (store files, quarantine, worker logs) and print its path.")
    var keep = false

    @Option(help: "A target executable of your own that speaks the worker protocol (see docs).")
    var targetExec: String?

    func validate() throws {
        if all && !scenarios.isEmpty { throw ValidationError("give scenario names or --all, not both") }
        if !all && scenarios.isEmpty { throw ValidationError("name a scenario (see 'chaos list') or use --all") }
        if targetExec == nil && !["hardened", "legacy"].contains(variant) {
            throw ValidationError("--variant must be hardened or legacy, not '\(variant)'")
        }
    }

    func run() throws {
        let chosen: [Scenario]
        do {
            chosen = all ? try ScenarioLoader.bundled() : try scenarios.map { try ScenarioLoader.resolve($0) }
        } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        let worker: WorkerCommand
        var extras: [String] = []
        if let targetExec {
            let path = URL(fileURLWithPath: targetExec).standardizedFileURL.path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                printError("chaos: --target-exec: no executable at \(path)")
                throw ExitCode(64)
            }
            worker = WorkerCommand(executable: path, arguments: [], environment: WorkerCommand.workerEnvironment(), targetName: path)
            extras = ["--target-exec", path]
        } else {
            worker = Self.builtInWorker
        }
        let options = RunOptions(variant: variant, seed: seed, keepScratch: keep, worker: worker, reproduceExtras: extras)
        RunInterruption.install()

        let console = RunConsole()
        console.header(seed: seed, scenarios: chosen, variant: variant, target: worker.targetName)
        let report = SuiteRunner(options: options, command: CommandLine.arguments.joined(separator: " "))
            .run(chosen) { console.event($0) }

        let directory = URL(fileURLWithPath: reportDir)
        do {
            let written = try ReportSet.write(report, to: directory)
            console.footer(report, html: written.html.path, json: written.json.path, junit: written.junit.path)
        } catch {
            console.footer(report, html: nil, json: nil, junit: nil)
            printError("chaos: could not write the reports to \(directory.path): \(error)")
            throw ExitCode(2)
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// The built-in target: this executable's hidden `worker` subcommand.
    static var builtInWorker: WorkerCommand {
        WorkerCommand(executable: selfExecutable, arguments: ["worker"],
                      environment: WorkerCommand.workerEnvironment(), targetName: RunInfo.builtInTarget)
    }

    /// This executable's own path: the built-in worker is `chaos worker`.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
