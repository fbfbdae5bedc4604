import ArgumentParser
import Chaos
import Foundation

struct ReproduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reproduce",
        abstract: "Re-run a case from a report, or find the scenarios that reproduce a crash log.",
        discussion: """
        Examples:
          chaos reproduce reports/chaos-report.json     (the first failed case)
          chaos reproduce reports/chaos-report.json --case corrupted-db --keep
          chaos reproduce --from-crash crash.log    (the built-in app, legacy)
          chaos reproduce --from-crash crash.log \\
              --target-exec .build/debug/chaos-example-notes --variant fragile
          chaos reproduce --from-crash crash.log \\
              --scenarios Examples/Notes/scenarios \\
              --target-exec .build/debug/chaos-example-notes

        A case runs again with its recorded seed, variant, target options, target
        and scenario; if the scenario file changed since, it says so. The original
        verdict and trap site are printed beside the new ones.

        A crash log is matched by the trap's site (File.swift:LINE) and its Fatal
        error message (site and message, then site, then message). With no
        --scenarios, nothing needs writing first: the storage catalog, as chaos
        check runs it on your target (and the built-in app's own catalog, on
        it), runs on each variant; when no case traps that way, a hunt aimed at
        the crash (its message and frames weigh the faults and actions drawn)
        runs within --budget, and the first schedule that traps the same way is
        shrunk and written to REPORT-DIR/found/ with its `chaos run` line.
        With --scenarios, yours run on each variant and the matches run again.
        """)

    @Argument(help: "A chaos-report.json.")
    var report: String?

    @Option(name: .customLong("case"), help: "The scenario of the case to re-run (default: the first that did not pass).")
    var caseName: String?

    @Option(help: "A crash log: the Swift runtime's \"Fatal error\" line and backtrace, from a worker or your app.")
    var fromCrash: String?

    @Option(help: "With --from-crash: scenario folders or files to match against (repeatable; default: the bundled catalog).")
    var scenarios: [String] = []

    @OptionGroup var target: TargetOptions

    @Flag(help: "Keep the case's scratch directory (store files, quarantine, worker logs) and print its path.")
    var keep = false

    @Option(help: "With --from-crash and no --scenarios: how long the hunt aimed at the crash may take, e.g. 2m.")
    var budget: String = "2m"

    @Option(name: [.customShort("j"), .long], help: "With --from-crash: run this many cases at once (default: one per core).")
    var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Where to write the reports of the new run.")
    var reportDir: String = "reports/reproduce"

    func validate() throws {
        if (report == nil) == (fromCrash == nil) { throw ValidationError("give a report or --from-crash FILE (one of them)") }
        if !scenarios.isEmpty && fromCrash == nil { throw ValidationError("--scenarios goes with --from-crash") }
        if ScenarioDuration.parse(budget).map({ $0 > .zero }) != true {
            throw ValidationError("--budget wants a duration such as 90s, 2m or 10m; got '\(budget)'")
        }
        guard (1...64).contains(jobs) else { throw ValidationError("-j must be from 1 to 64") }
    }

    func run() throws {
        RunInterruption.install()
        try ReportOptions.prepare(reportDir)
        if let fromCrash {
            return try CrashReproduction(log: fromCrash, scenarios: scenarios, target: target, reportDir: reportDir,
                                         budget: ScenarioDuration.parse(budget) ?? .seconds(120), jobs: jobs).run()
        }
        guard let report else { return }
        let previous = try CommandFailure.usage { try JSONReportWriter.read(from: URL(fileURLWithPath: report)) }
        guard let original = caseName.map({ name in previous.cases.first { $0.scenario == name } })
            ?? previous.cases.first(where: { $0.verdict != .passed }) ?? previous.cases.first else {
            let names = previous.cases.map(\.scenario).joined(separator: ", ")
            throw CommandFailure("chaos: \(report) has no case \(caseName.map { "'\($0)'" } ?? "to reproduce"); it has: \(names)", .usage)
        }
        let choice = try TargetOptions.resolve(targetExec: target.targetExec ?? previous.run.targetExec, variant: target.variant ?? original.variant)
        let scenario = try loadScenario(of: original, target: choice)
        if CaseReport.scenarioHash(of: scenario.sourceText) != original.scenarioHash {
            print("note: the scenario \(scenario.name) changed since the report was written (its hash differs): "
                + "the case runs with today's file")
        }
        var options = RunOptions(target: choice, seed: original.seed, keepScratch: keep)
        options.optionOverrides = original.options ?? [:]
        try choice.check([scenario], options: options.optionOverrides)
        let runner = CaseRunner(scenario: scenario, options: options)
        let again = runner.run()
        print("case \(original.scenario), seed \(original.seed), variant \(original.variant), target \(choice.name)")
        print("  then: \(Self.describe(original))")
        print("  now:  \(Self.describe(again))")
        let same = original.verdict == again.verdict && original.trap?.site == again.trap?.site
        print(same ? "  reproduced: same verdict\(again.trap != nil ? " and trap site" : "")" : "  NOT reproduced: the outcome differs")
        if keep { print("  kept: \(runner.scratchDirectory.path)") }
        let written = try ReportSet.write(RunReport(run: RunInfo.now(options: options), cases: [again]), to: URL(fileURLWithPath: reportDir))
        print("report: \(written.html.path)")
        if RunInterruption.requested { throw ExitCode(.interrupted) }
        if again.verdict != .passed { throw ExitCode(again.verdict == .errored ? .harnessError : .failed) }
    }

    static func describe(_ report: CaseReport) -> String {
        var text = report.verdict.rawValue
        if let trap = report.trap {
            text += ", trap \(trap.signalName)" + (trap.site.map { " at \($0)" } ?? "") + (trap.message.map { ": \($0)" } ?? "")
        }
        let failed = report.expectations.filter { !$0.passed }.map(\.label)
        if !failed.isEmpty { text += "; failed: " + failed.joined(separator: ", ") }
        return text
    }

    /// The case's scenario; one of the storage catalog's as it is for the target (its
    /// migration cases come from the older stores it declares).
    private func loadScenario(of report: CaseReport, target: TargetSelection) throws -> Scenario {
        try CommandFailure.usage {
            switch ScenarioOrigin(reportedFile: report.scenarioFile, name: report.scenario) {
            case .catalog:
                return try ScenarioLoader.resolve(report.scenario, in: target.catalog)
            case .storageCatalog:
                guard let scenario = try CheckCatalog.scenarios(for: target.declaration).first(where: { $0.name == report.scenario }) else {
                    throw CommandFailure("chaos: \(report.scenario) is no longer in the storage catalog", .usage)
                }
                return scenario
            case let .file(path):
                return try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: path))
            }
        }
    }
}
