import Chaos
import Foundation

/// What `chaos hunt` prints: what the plain run found to aim at, a live count of the
/// schedules, then each finding with its file and reproduce line, and the figures.
final class HuntConsole {
    private let terminal = isatty(1) == 1
    private var live = false

    func show(_ progress: Hunter.Progress) {
        switch progress {
        case let .discovered(surface, cases):
            let points = surface.points.isEmpty ? "no fault point" : "\(surface.points.count) fault points (\(surface.points.prefix(6).joined(separator: ", "))"
                + (surface.points.count > 6 ? ", …)" : ")")
            say("plain run: \(cases) actions, \(points); " + (surface.files.isEmpty ? "no files" : "files \(surface.files.joined(separator: ", "))")
                + (surface.remotes.isEmpty ? "" : "; remotes \(surface.remotes.joined(separator: ", "))"))
        case let .ran(done, failed, findings):
            // Ways of failing, before shrinking: each becomes a finding at the end, or proves
            // the cause of one already made, or (a hang its file never shows) none.
            let line = "  schedules \(done), failed \(failed), ways of failing \(findings) (each shrunk to a finding at the end)"
            if terminal {
                print("\r" + line, terminator: "")
                fflush(nil)
                live = true
            } else if done % 50 == 0 {
                print(line)
                fflush(nil)
            }
        case let .shrinking(failure, steps):
            say("shrinking \(failure.signature) (\(steps) steps)…")
        case let .found(finding):
            for line in Self.lines(of: finding) { say(line) }
        case let .sameAs(_, finding):
            say("  shrunk, the same cause as \(finding.file): its schedules are counted there")
        case .notAHang:
            say("  its file answered at the case's full timeout: a slow step, not a hang (no finding)")
        }
    }

    /// A finding as the console shows it: its whole title, how it was shrunk and how often
    /// it fails, what happened, its file and the line that reproduces it.
    static func lines(of finding: HuntFinding) -> [String] {
        let schedules = "\(finding.failingSchedules) schedule\(finding.failingSchedules == 1 ? "" : "s"), first \(finding.schedule)"
        let struck = finding.struck.map { $0.isEmpty ? "" : ", struck " + $0.joined(separator: ", ") } ?? ""
        // A file's run again that took long (a hang's, at the case's full timeout) is said apart.
        let confirming = (finding.confirmMs ?? 0) >= 1_000
            ? ", then \(String(format: "%.1f", Double(finding.confirmMs ?? 0) / 1000)) s run from its file" : ""
        var shrunk = "shrunk \(finding.stepsBefore) → \(finding.stepsAfter) steps in \(finding.shrinkRuns) runs "
            + "(\(String(format: "%.1f", Double(finding.shrinkMs) / 1000)) s\(confirming))"
        if finding.cutShort {
            shrunk += ", cut short by the budget with \(finding.untriedSteps ?? 0) step\(finding.untriedSteps == 1 ? "" : "s") "
                + "not yet tried (--shrink FILE goes on)"
        } else {
            shrunk += ", minimal"
        }
        var lines = FindingFile.wrapped("✘ " + finding.failure, width: 100)
        lines += FindingFile.wrapped("\(schedules)\(struck); \(shrunk)" + (finding.rateText.map { "; fails \($0)" } ?? ""), width: 98).map { "  " + $0 }
        if let explanation = finding.explanation {
            lines += FindingFile.wrapped(explanation, width: 98).map { "  " + $0 }
        }
        lines.append("  \(finding.file)" + (finding.reproduced ? "" : " (run again from the file, it did not fail the same way)"))
        lines.append("  reproduce: \(finding.reproduce)")
        return lines
    }

    func summary(_ outcome: HuntOutcome) {
        let seconds = Double(outcome.runMs) / 1000
        let rate = seconds > 0 ? Double(outcome.schedules) / seconds : 0
        say("")
        say("\(outcome.schedules) schedules in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", rate))/s): "
            + "\(outcome.bitten) bitten by a fault, \(outcome.idle) whose faults never fired (no evidence), \(outcome.failedSchedules) failed"
            + (outcome.errored > 0 ? ", \(outcome.errored) errored" : ""))
        if let error = outcome.firstError { say("  first error: \(error)") }
        let first = outcome.firstFailureMs.map { "; first failure read at \(String(format: "%.1f", Double($0) / 1000)) s" } ?? ""
        say("  strategy \(outcome.strategy.rawValue)" + (outcome.corpus.map { ", corpus of \($0) schedule\($0 == 1 ? "" : "s")" } ?? "") + first)
        if outcome.unconfirmedHangs > 0 {
            say("  \(outcome.unconfirmedHangs) step\(outcome.unconfirmedHangs == 1 ? "" : "s") over the hunt's bound answered within the case's "
                + "timeout when run again: slow, not hung (no finding)")
        }
        let count = outcome.findings.count
        let folder = outcome.findings.first.map { ($0.file as NSString).deletingLastPathComponent } ?? ""
        // The same count as the progress line's "ways of failing", and where each went.
        let ways = max(outcome.failuresBySignature.count, count + outcome.sameCause + outcome.unconfirmedHangs)
        let unshrunk = ways - count - outcome.sameCause - outcome.unconfirmedHangs
        let from = ways == count ? "" : " (of \(ways) ways of failing: " + [
            outcome.sameCause > 0 ? "\(outcome.sameCause) shrunk to the cause of another" : nil,
            outcome.unconfirmedHangs > 0 ? "\(outcome.unconfirmedHangs) not a hang" : nil,
            unshrunk > 0 ? "\(unshrunk) not shrunk in the budget" : nil,
        ].compactMap { $0 }.joined(separator: ", ") + ")"
        say(count == 0 ? "findings: none" + from : "findings: \(count) distinct failure\(count == 1 ? "" : "s")\(from), in \(folder)/")
        if outcome.interrupted { say("interrupted: the hunt did not finish") }
    }

    private func say(_ text: String) {
        if live {
            print("")
            live = false
        }
        print(text)
        fflush(nil)
    }
}
