import Foundation
import ChaosTarget

/// The case's report: what its log, ledger and app say, and the command that reproduces it.
extension CaseRunner {
    func report(verdict: Verdict, expectations: [ExpectationResult] = [], error: String? = nil) -> CaseReport {
        var report = CaseReport(
            scenario: scenario.name, summary: scenario.summary, system: scenario.system,
            scenarioFile: scenario.origin.reportedFile(name: scenario.name), scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: seed, variant: options.variant, verdict: verdict, durationMs: clock.elapsedMs,
            recoveryMs: log.evidence.recoveryMs, steps: log.steps, injections: log.injections, expectations: expectations,
            trap: log.evidence.trap, reproduce: reproduceCommand, error: error, workerLaunches: app?.process.launches ?? 0)
        report.recoveryStartMs = log.evidence.recoveryMs == nil ? nil : log.recoveryStartMs
        report.options = targetOptions
        report.faults = measuredFaults ?? seams.effects(of: ledger)
        report.leftBehind = leftBehind.isEmpty ? nil : leftBehind
        (report.logs, report.logsDropped) = (log.evidence.logs.isEmpty ? nil : log.evidence.logs, log.evidence.logsDropped == 0 ? nil : log.evidence.logsDropped)
        report.pointsReached = log.pointsHit.isEmpty ? nil : log.pointsHit.sorted()
        return report
    }

    /// The command line that reproduces this case: `chaos run SUBJECT` (a case of the
    /// storage catalog: `chaos check --only NAME`), its seed, variant, options and target.
    var reproduceCommand: String {
        let head = scenario.origin == .storageCatalog ? ["chaos", "check", "--only", scenario.name]
            : ["chaos", "run", ScenarioLoader.subject(of: scenario)]
        return (head + ["--seed", String(seed), "--variant", options.variant] + options.reproduceExtras)
            .map(ShellWords.quoted).joined(separator: " ")
    }
}
