import ArgumentParser
import Chaos
import Foundation

struct ReproduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reproduce",
        abstract: "Re-run a case from a report, or find the scenarios that reproduce a crash log.",
        discussion: """
        chaos reproduce reports/chaos-report.json                  the first case that did not pass
        chaos reproduce reports/chaos-report.json --case corrupted-db --keep
        chaos reproduce --from-crash crash.log                    a Swift "Fatal error" + backtrace

        A case runs again with its recorded seed, variant, target options and scenario;
        if the scenario file changed since, it says so. The original verdict and trap
        site are printed beside the new ones.
        """)

    @Argument(help: "A chaos-report.json.")
    var report: String?

    @Option(name: .customLong("case"), help: "The scenario of the case to re-run (default: the first that did not pass).")
    var caseName: String?

    @Option(help: "A crash log: the Swift runtime's \"Fatal error\" line and backtrace, from a worker or your app.")
    var fromCrash: String?

    @Flag(help: "Keep the case's scratch directory (store files, quarantine, worker logs) and print its path.")
    var keep = false

    @Option(help: "Where to write the reports of the new run.")
    var reportDir: String = "reports/reproduce"

    func validate() throws {
        if (report == nil) == (fromCrash == nil) { throw ValidationError("give a report or --from-crash FILE (one of them)") }
    }

    func run() throws {
        RunInterruption.install()
        if let fromCrash { return try reproduceCrash(fromCrash) }
        guard let report else { return }
        let previous: RunReport
        do {
            previous = try JSONReportWriter.read(from: URL(fileURLWithPath: report))
        } catch {
            printError("chaos: \(report): \(error)")
            throw ExitCode(64)
        }
        guard let original = caseName.map({ name in previous.cases.first { $0.scenario == name } })
            ?? previous.cases.first(where: { $0.verdict != .passed }) ?? previous.cases.first else {
            let names = previous.cases.map(\.scenario).joined(separator: ", ")
            printError("chaos: \(report) has no case \(caseName.map { "'\($0)'" } ?? "to reproduce"); it has: \(names)")
            throw ExitCode(64)
        }
        let scenario = try loadScenario(of: original)
        if CaseReport.scenarioHash(of: scenario.sourceText) != original.scenarioHash {
            print("note: the scenario \(scenario.name) changed since the report was written (its hash differs): "
                + "the case runs with today's file")
        }
        let (worker, extras) = try RunCommand.worker(targetExec: previous.run.target == RunInfo.builtInTarget ? nil : previous.run.target)
        var options = RunOptions(variant: original.variant, seed: original.seed, keepScratch: keep, worker: worker, reproduceExtras: extras)
        options.optionOverrides = original.options ?? [:]
        let runner = CaseRunner(scenario: scenario, options: options)
        let again = runner.run()
        print("case \(original.scenario), seed \(original.seed), variant \(original.variant)")
        print("  then: \(describe(original))")
        print("  now:  \(describe(again))")
        let same = original.verdict == again.verdict && original.trap?.site == again.trap?.site
        print(same ? "  reproduced: same verdict\(again.trap != nil ? " and trap site" : "")" : "  NOT reproduced: the outcome differs")
        if keep { print("  kept: \(runner.scratchDirectory.path)") }
        try write([again], variant: original.variant)
        if again.verdict != .passed { throw ExitCode(again.verdict == .errored ? 2 : 1) }
    }

    private func describe(_ report: CaseReport) -> String {
        var text = report.verdict.rawValue
        if let trap = report.trap {
            text += ", trap \(trap.signalName)" + (trap.site.map { " at \($0)" } ?? "") + (trap.message.map { ": \($0)" } ?? "")
        }
        let failed = report.expectations.filter { !$0.passed }.map(\.label)
        if !failed.isEmpty { text += "; failed: " + failed.joined(separator: ", ") }
        return text
    }

    private func loadScenario(of report: CaseReport) throws -> Scenario {
        do {
            if FileManager.default.fileExists(atPath: report.scenarioFile),
               !ScenarioLoader.bundledNames().contains(report.scenario) || !report.scenarioFile.contains("/catalog/") {
                return try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: report.scenarioFile))
            }
            return try ScenarioLoader.resolve(report.scenario)
        } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
    }

    /// A crash log in, the bundled scenarios whose legacy run traps the same way out.
    private func reproduceCrash(_ path: String) throws {
        guard let text = try? String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8) else {
            printError("chaos: cannot read the crash log \(path)")
            throw ExitCode(64)
        }
        let site = TrapParser.site(in: text)
        let message = TrapParser.message(in: text)
        guard site != nil || message != nil else {
            print("The crash log has no Swift \"Fatal error\" line and no backtrace frame in project code: nothing to match.")
            throw ExitCode(1)
        }
        print("crash log: \(message.map { "\"\($0)\"" } ?? "no message")\(site.map { " at \($0)" } ?? "")")
        print("running every bundled scenario on legacy to find the ones that trap the same way…")
        let scenarios: [Scenario]
        do { scenarios = try ScenarioLoader.bundled() } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        let options = RunOptions(variant: "legacy", seed: nil, keepScratch: false, worker: RunCommand.builtInWorker)
        let found = SuiteRunner(options: options, command: "chaos reproduce --from-crash \(path)")
            .run(scenarios, jobs: 2).cases.filter { report in
                guard let trap = report.trap else { return false }
                return (site != nil && trap.site == site) || (message != nil && trap.message == message)
            }
        guard !found.isEmpty else {
            print("No bundled scenario traps at that site or with that message on legacy.")
            print("Write a scenario for it (docs/SCENARIOS.md), or put the user's damaged database in place with replace-file.")
            throw ExitCode(1)
        }
        print("\(found.count) scenario\(found.count == 1 ? "" : "s") reproduce it:")
        for report in found {
            print("  \(report.scenario): trap \(report.trap?.signalName ?? "")\(report.trap?.site.map { " at \($0)" } ?? "") — \(report.reproduce)")
        }
        print("running them again:")
        let again = SuiteRunner(options: options, command: "chaos reproduce --from-crash \(path)")
            .run(found.compactMap { report in scenarios.first { $0.name == report.scenario } }) { RunConsole().event($0) }
        try write(again.cases, variant: "legacy")
        throw ExitCode(again.exitCode == 0 ? 1 : again.exitCode)
    }

    private func write(_ cases: [CaseReport], variant: String) throws {
        let info = RunInfo(id: UUID().uuidString.lowercased(), startedAt: ISO8601DateFormatter().string(from: Date()),
                           chaosVersion: ChaosVersion.current, seed: nil, variant: variant,
                           command: CommandLine.arguments.joined(separator: " "), target: RunInfo.builtInTarget)
        let written = try ReportSet.write(RunReport(run: info, cases: cases), to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
    }
}
