import ChaosTarget
import Foundation

extension Hunter {
    /// Writes a shrunk failure as `FOUND/NAME.yaml`, loads it back as any scenario file
    /// is loaded (so a file the format refuses is never handed out), and runs it as it
    /// is: its report is the finding's case, with the reproduce line a user types.
    func write(_ failure: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome,
               names: inout Set<String>, failing: Int, shrinkMs: Int) throws(Problem) -> (HuntFinding, CaseReport) {
        var name = failure.name
        var suffix = 2
        while names.contains(name) {
            name = "\(failure.name)-\(suffix)"
            suffix += 1
        }
        names.insert(name)
        let path = (foundPath.hasSuffix("/") ? foundPath : foundPath + "/") + name + ".yaml"
        let url = foundDirectory.appendingPathComponent(name + ".yaml")
        let summary = "\(Self.findingSummaryPrefix) (seed \(seed), schedule \(first.index), shrunk from \(first.steps.count) to "
            + "\(shrunk.schedule.steps.count) steps): \(Self.describe(failure))."
        let yaml = shrunk.schedule.yaml(name: name, summary: summary)
        do {
            try Data(yaml.utf8).write(to: url)
        } catch {
            throw .cannotWrite("cannot write \(path): \(error.localizedDescription)")
        }
        var report: CaseReport
        var reproduced = false
        if let loaded = try? ScenarioLoader.load(yaml: yaml, file: path, baseDirectory: nil) {
            report = CaseRunner(scenario: loaded, options: caseOptions).run()
            reproduced = HuntOracle.failure(of: report) == failure
        } else {
            report = shrunk.report
        }
        report.scenario = name
        report.summary = summary
        if !reproduced {
            report.error = (report.error.map { $0 + "; " } ?? "") + "the written file, run again, did not fail as the hunt saw (\(failure.signature)): "
                + "the failure depends on timing"
        }
        let finding = HuntFinding(
            name: name, file: path, failure: failure.signature, schedule: first.index, failingSchedules: failing,
            stepsBefore: first.steps.count, stepsAfter: shrunk.schedule.steps.count, shrinkRuns: shrunk.runs, shrinkMs: shrinkMs,
            cutShort: shrunk.cutShort, reproduced: reproduced, reproduce: report.reproduce, yaml: yaml)
        return (finding, report)
    }

    /// `the app traps at LegacyStore.swift:18`, `it fails no-silent-loss`.
    static func describe(_ failure: HuntOracle.Failure) -> String {
        if failure.signature.hasPrefix("trap") { return "the app \(failure.signature.replacingOccurrences(of: "trap", with: "traps", options: .anchored))" }
        return "it fails \(failure.signature)"
    }
}
