import ChaosTarget

/// One paragraph that says what happened in a finding's case, built from its evidence
/// only, the same in the console, the HTML report and the JUnit message: what the faults
/// did (each in the words of its own measured effect), what the app answered (trapped
/// at a site, did not answer for so long, the errors it showed), and what was lost or how
/// long it waited. Jepsen's reports explain an anomaly in words beside the history that
/// shows it; this is that sentence for a hunt's finding.
struct FindingExplanation {
    let report: CaseReport
    let failure: HuntOracle.Failure

    /// One paragraph: every line break of the evidence (an `integrity_check` report, a
    /// multi-line error) folded into a space, so that it stays one paragraph wherever it goes.
    var text: String {
        let paragraph = [faultsDid, appAnswered, outcome].compactMap { $0 }.joined(separator: " ")
        return paragraph.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// `Faults: blackhole (step 3) acted on 2 connections; …`
    var faultsDid: String? {
        let fired = (report.faults ?? []).filter { $0.fired > 0 }
        guard !fired.isEmpty else { return "No fault fired." }
        let parts = fired.map { activity -> String in
            let step = activity.step.map { " (step \($0))" } ?? ""
            let effect = activity.effect.map { ": \($0)" } ?? ""
            return "\(activity.label)\(step)\(effect)"
        }
        return (fired.count == 1 ? "Fault: " : "Faults: ") + parts.joined(separator: "; ") + "."
    }

    /// What the app did in answer: a trap, a hang, an end, the errors it answered.
    var appAnswered: String? {
        let last = report.steps.last
        let at = last.map { " during step \($0.index) (\($0.label))" } ?? ""
        if let trap = report.trap {
            let message = trap.message.map { ": \"\(Self.firstLine($0))\"" } ?? ""
            return "The app trapped (\(trap.signalName))\(trap.site.map { " at \($0)" } ?? "")\(at)\(message)."
        }
        switch failure.kind {
        case .hang:
            let waited = last.map { ScenarioDuration.seconds(.milliseconds($0.durationMs)) } ?? "?"
            return "The app did not answer\(at) for \(waited) s; the case's time limit ended it."
        case .exit:
            let end = report.expectations.first { $0.kind == ExpectationKeyword.noTrap.rawValue && !$0.passed }?.end?.sentence ?? "ended"
            return "The app \(end)\(at)."
        case .trap, .expectations:
            let errors = report.steps.filter { $0.outcome == .error }
            guard let lastError = errors.last else { return "Every step the app answered succeeded." }
            let said = lastError.detail.map { ", the last: \"\(Self.firstLine($0))\"" } ?? ""
            return "The app answered \(errors.count) step\(errors.count == 1 ? "" : "s") with an error\(said)."
        }
    }

    /// What failed of the oracle: what was lost and whether the user was told, how long
    /// recovery took.
    var outcome: String? {
        let failed = report.expectations.filter { !$0.passed && !$0.wasNotReached && $0.kind != ExpectationKeyword.noTrap.rawValue }
        guard !failed.isEmpty else { return nil }
        return "Failed: " + failed.map { result in
            "\(result.label) — \(result.observed)" + (result.detail.map { " (\(Self.firstLine($0)))" } ?? "")
        }.joined(separator: "; ") + "." + causes(of: failed)
    }

    /// The causes the evidence named beside a loss (the app synced nothing…), said once each.
    private func causes(of failed: [ExpectationResult]) -> String {
        var seen: [LossCause] = []
        for cause in failed.compactMap(\.lossCause) where !seen.contains(cause) { seen.append(cause) }
        return seen.map { " The cause: " + $0.sentence }.joined()
    }

    static func firstLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
    }
}
