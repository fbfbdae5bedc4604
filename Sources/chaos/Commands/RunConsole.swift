import Chaos
import Foundation

/// What `chaos run` prints. The seed comes first; then a line per case as it ends
/// (on a terminal, a live line shows what is running); the evidence of every case that
/// did not pass, with its reproduce command; a summary table; where the reports are.
/// Colour and live lines only on a terminal, never with NO_COLOR; plain lines otherwise.
/// Unchecked Sendable: the suite runner calls it from its worker threads, but only
/// through ``SuiteRunner``'s progress callback, which it serialises under its own lock.
final class RunConsole: @unchecked Sendable {
    private let descriptor: Int32
    private let terminal: Bool
    private let colour: Bool
    private var running: [String] = []
    private var finished: [CaseReport] = []
    /// Wide enough for the longest scenario name of the run.
    private var nameWidth = 28

    init(toStandardError: Bool = false) {
        descriptor = toStandardError ? 2 : 1
        terminal = isatty(descriptor) == 1
        colour = terminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    func header(seed: UInt64?, scenarios: [Scenario], variant: String, target: String, jobs: Int = 1, shard: String? = nil,
                count: Int? = nil) {
        let seedText: String
        if let seed {
            seedText = "seed \(seed)"
        } else if scenarios.count == 1, let only = scenarios.first {
            seedText = "seed \(only.seed) (the scenario's own; --seed to change)"
        } else {
            seedText = "seed: each scenario's own (--seed N to use one for all)"
        }
        nameWidth = max(count == nil ? 28 : 38, scenarios.map(\.name.count).max() ?? 0)
        let count = count ?? scenarios.count
        say("chaos \(ChaosVersion.current) — \(seedText)")
        var details = ["variant \(variant)", "target \(target)", "\(count) \(count == 1 ? "case" : "cases")"]
        if jobs > 1 { details.append("\(jobs) at a time") }
        if let shard { details.append("shard \(shard)") }
        say(details.joined(separator: ", "))
        say("")
    }

    func event(_ event: SuiteRunner.CaseEvent) {
        switch event {
        case let .started(scenario):
            running.append(scenario.name)
            showLive()
        case let .finished(report, scratch):
            running.removeAll { $0 == report.scenario }
            finished.append(report)
            clearLive()
            caseLines(report, scratch: scratch)
            showLive()
        }
    }

    private func caseLines(_ report: CaseReport, scratch: URL?) {
        let report = Self.clean(report)
        let mark: String
        switch report.verdict {
        case .passed: mark = paint("✔", 32)
        case .deviated: mark = paint("✘", 31)
        case .inconclusive: mark = paint("?", 33)
        case .errored: mark = paint("!", 33)
        case .skipped: mark = paint("-", 90)
        case .interrupted: mark = paint("⏹", 33)
        }
        var line = "\(mark) \(report.scenario.padding(nameWidth)) \(report.verdict.rawValue.padding(11)) \(String(report.durationMs).leftPadded(6)) ms"
        if let recovery = report.recoveryMs { line += "   recovered in \(recovery) ms" }
        if let trap = report.trap { line += "   trap \(trap.signalName)" + (trap.site.map { " at \($0)" } ?? "") }
        if let baseline = report.baseline { line += "   [\(baseline)]" }
        say(line)
        if let trap = report.trap, trap.site == nil, let why = trap.backtrace, why.hasPrefix("no backtrace:") { say("    \(why)") }
        if report.verdict != .passed {
            // The app's end once (a trap: its site, message and step), then only the
            // expectations it let be judged; those it kept from it, in one line.
            for failed in report.expectations where !failed.passed && !failed.wasNotReached {
                var label = failed.label
                if failed.kind == "no-trap", let step = report.steps.last(where: { $0.outcome == .trapped || $0.outcome == .error }) {
                    label += " (at step \(step.index): \(step.label))"
                }
                say("    \(paint("✘", 31)) \(label): expected \(failed.expected), saw \(failed.observed)")
                for line in (failed.detail ?? "").split(separator: "\n") { say("      \(line)") }
            }
            let unreached = report.expectations.filter(\.wasNotReached)
            if let why = unreached.first?.detail {
                say("    \(paint("·", 90)) \(why): " + unreached.map(\.label).joined(separator: ", "))
            }
            if let error = report.error { say("    \(error)") }
            for fault in report.faults ?? [] where report.verdict != .skipped {
                let mark = fault.hadEffect == false ? paint("○", 33) : "•"
                say("    \(mark) \(fault.id) \(fault.label): \(fault.effect ?? "not measured")")
            }
            if report.verdict != .skipped, report.verdict != .interrupted { say("    reproduce: \(report.reproduce)") }
        }
        for process in report.leftBehind ?? [] { say("    \(paint("!", 33)) left running by the app, killed: \(process)") }
        if let scratch { say("    kept: \(scratch.path)") }
    }

    func footer(_ report: RunReport, html: String?, json: String?, junit: String?) {
        clearLive()
        let summary = report.summary
        if report.cases.count > 1 {
            say("")
            say("SCENARIO".padding(nameWidth) + "  VERDICT".padding(13) + "  TIME".padding(10) + "  RECOVERY")
            for item in report.cases {
                let recovery = item.recoveryMs.map { "\($0) ms" } ?? "—"
                say(item.scenario.padding(nameWidth) + "  " + item.verdict.rawValue.padding(11) + "  "
                    + "\(item.durationMs) ms".padding(8) + "  " + recovery + (item.baseline.map { "  [\($0)]" } ?? ""))
            }
        }
        var parts = ["\(summary.passed) passed", "\(summary.deviated) deviated"]
        if summary.inconclusive > 0 { parts.append("\(summary.inconclusive) inconclusive") }
        parts.append("\(summary.errored) errored")
        if summary.skipped > 0 { parts.append("\(summary.skipped) skipped") }
        if summary.interrupted > 0 { parts.append("\(summary.interrupted) interrupted") }
        let idle = report.cases.filter { $0.verdict != .skipped }.flatMap { $0.faults ?? [] }.count { $0.hadEffect == false }
        if idle > 0 { parts.append("\(idle) fault\(idle == 1 ? "" : "s") had no effect") }
        let baseline = report.cases.compactMap(\.baseline)
        if !baseline.isEmpty {
            parts.append("against the baseline: \(baseline.filter { $0 == "new" }.count) new, "
                + "\(baseline.filter { $0 == "known" }.count) known, \(baseline.filter { $0 == "fixed" }.count) fixed")
        }
        say("")
        say("\(parts.joined(separator: ", ")) in \(String(format: "%.1f", Double(summary.durationMs) / 1000)) s")
        if let html, let json, let junit {
            say("report: \(html)")
            say("        \(json), \(junit)")
        }
    }

    /// One more line after the footer.
    func note(_ text: String) {
        say(text)
    }

    // MARK: - Output

    private func showLive() {
        guard terminal, !running.isEmpty else { return }
        let text = "  running: " + running.joined(separator: ", ")
        write("\u{1B}[2K\r" + paint(String(text.prefix(120)), 90))
    }

    private func clearLive() {
        guard terminal else { return }
        write("\u{1B}[2K\r")
    }

    /// A line out. Scenario and worker text is cleaned where it enters (``clean(_:)``);
    /// the escape codes of ``paint(_:_:)`` are this console's own.
    private func say(_ text: String) {
        write(text + "\n")
    }

    private func write(_ text: String) {
        fflush(nil)  // what `print` buffered comes first: the lines stay in order in a log
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            offset += count
        }
    }

    private func paint(_ text: String, _ code: Int) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension RunConsole {
    /// The report with every text that came from a scenario or a worker made safe for a
    /// terminal (``TerminalText``).
    static func clean(_ report: CaseReport) -> CaseReport {
        var report = report
        let clean = TerminalText.clean
        report.scenario = clean(report.scenario)
        report.error = report.error.map(clean)
        report.reproduce = clean(report.reproduce)
        report.expectations = report.expectations.map { result in
            var result = result
            (result.label, result.expected, result.observed) = (clean(result.label), clean(result.expected), clean(result.observed))
            result.detail = result.detail.map(clean)
            return result
        }
        report.faults = report.faults?.map { fault in
            var fault = fault
            fault.label = clean(fault.label)
            fault.effect = fault.effect.map(clean)
            return fault
        }
        if var trap = report.trap {
            trap.site = trap.site.map(clean)
            trap.message = trap.message.map(clean)
            trap.backtrace = trap.backtrace.map(clean)
            report.trap = trap
        }
        return report
    }
}
