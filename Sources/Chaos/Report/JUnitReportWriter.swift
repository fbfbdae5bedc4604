import ChaosTarget

/// Renders `junit.xml` for CI systems: one `<testsuite name="chaos">`, one
/// `<testcase classname="chaos.SYSTEM" name="SCENARIO">` per case.
///
/// ```xml
/// <testcase classname="chaos.favorites" name="corrupted-db" time="1.840">
///   <failure message="2 of 5 expectations failed: no-trap, fallback: restored-from-backup" type="deviated">…</failure>
///   <system-out>the timeline</system-out>
///   <system-err>the trap: signal, message, site, backtrace</system-err>
/// </testcase>
/// ```
///
/// Verdicts map to `<failure type="deviated">`, `<error type="errored">`,
/// `<error type="interrupted">` (an interrupted case did not finish: a CI
/// should treat it as broken, not as skipped) and `<skipped>` (skipped, and
/// inconclusive with its reason). Every string
/// is escaped, and characters XML 1.0 forbids are replaced with U+FFFD.
package enum JUnitReportWriter {
    package static func xml(_ report: RunReport) -> String {
        let summary = report.summary
        let counts = """
            tests="\(report.cases.count)" failures="\(count(.deviated, in: report))" \
            errors="\(count(.errored, in: report) + count(.interrupted, in: report))" \
            skipped="\(count(.skipped, in: report) + count(.inconclusive, in: report))" time="\(seconds(summary.durationMs))"
            """
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="chaos" \(counts)>
              <testsuite name="chaos" \(counts) timestamp="\(attribute(report.run.startedAt))">
                <properties>

            """
        let properties = [
            ("chaos.run.id", report.run.id),
            ("chaos.version", report.run.chaosVersion),
            ("chaos.seed", report.run.seed.map { "\($0)" } ?? "per-scenario"),
            ("chaos.variant", report.run.variant),
            ("chaos.target", report.run.target),
            ("chaos.command", report.run.command),
            ("chaos.schemaVersion", "\(report.schemaVersion)"),
        ]
        for (name, value) in properties {
            xml += "      <property name=\"\(name)\" value=\"\(attribute(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for caseReport in report.cases {
            xml += testcase(caseReport)
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func testcase(_ report: CaseReport) -> String {
        var xml = """
                <testcase classname="chaos.\(attribute(report.system))" name="\(attribute(report.scenario))" \
            time="\(seconds(report.durationMs))">

            """
        if let mark = report.baseline {
            // Against --baseline: new, known or fixed, for CI systems that read testcase properties.
            xml += "      <properties>\n        <property name=\"chaos.baseline\" value=\"\(attribute(mark))\"/>\n      </properties>\n"
        }
        switch report.verdict {
        case .passed:
            break
        case .deviated:
            let mark = report.baseline.map { "[\($0)] " } ?? ""
            // A hunt's finding says what happened in words; the same paragraph heads its text.
            let message = report.explanation ?? failureMessage(report)
            let text = report.explanation.map { $0 + "\n\n" + failureText(report) } ?? failureText(report)
            xml += element("failure", message: mark + message, type: "deviated", text: text)
        case .errored, .interrupted:
            let reason = report.error ?? (report.verdict == .interrupted ? "the run was interrupted" : "the harness failed")
            let text = reason + "\n\nReproduce: " + report.reproduce
            xml += element("error", message: firstLine(reason), type: report.verdict.rawValue, text: text)
        case .skipped:
            xml += "      <skipped message=\"\(attribute(report.error ?? "skipped"))\"/>\n"
        case .inconclusive:
            // Proved nothing: a fault had no effect. Skipped, with the reason, for the CI;
            // the exit code still fails the gate unless --allow-inconclusive.
            xml += "      <skipped message=\"\(attribute("inconclusive: " + (report.error ?? "a fault had no effect")))\"/>\n"
        }
        let out = timelineText(report)
        if !out.isEmpty {
            xml += "      <system-out>\(text(out))</system-out>\n"
        }
        if let trap = report.trap {
            xml += "      <system-err>\(text(trapText(trap)))</system-err>\n"
        }
        xml += "    </testcase>\n"
        return xml
    }

    // MARK: - Text

    /// `2 of 5 expectations failed: no-trap, fallback: restored-from-backup`.
    static func failureMessage(_ report: CaseReport) -> String {
        let failed = report.expectations.filter { !$0.passed }
        guard !failed.isEmpty else {
            return report.trap.map { "trapped: \($0.message ?? $0.signalName)" } ?? "deviated"
        }
        return "\(failed.count) of \(report.expectations.count) expectations failed: "
            + failed.map(\.label).joined(separator: ", ")
    }

    static func failureText(_ report: CaseReport) -> String {
        var lines: [String] = []
        for expectation in report.expectations where !expectation.passed {
            lines.append("✗ \(expectation.label)")
            lines.append("    expected: \(expectation.expected)")
            lines.append("    observed: \(expectation.observed)")
            if let detail = expectation.detail { lines.append("    detail:   \(detail)") }
        }
        if let trap = report.trap {
            let site = trap.site.map { " at \($0)" } ?? ""
            lines.append("trap: \(trap.signalName) (\(trap.signal))\(site)" + (trap.message.map { ": \($0)" } ?? ""))
        }
        if let recoveryMs = report.recoveryMs {
            lines.append("recovered in \(recoveryMs) ms")
        }
        lines.append("")
        lines.append("Reproduce: \(report.reproduce)")
        return lines.joined(separator: "\n")
    }

    static func timelineText(_ report: CaseReport) -> String {
        let effects = (report.faults ?? []).map { "fault \($0.id) \($0.label): \($0.effect ?? "not measured")" }
        return (CaseTimeline(report).entries.map { entry in
            var at = "\(entry.atMs) ms"
            at += String(repeating: " ", count: max(0, 9 - at.count))
            switch entry.event {
            case .step(let step):
                return "\(at) step \(step.index) \(step.label) (\(step.durationMs) ms, \(step.outcome))"
                    + (step.detail.map { ": \($0)" } ?? "")
            case .injection(let injection):
                let count = injection.count.map { " at operation \($0)" } ?? ""
                return "\(at) inject \(injection.kind) → \(injection.target)\(count) via \(injection.mechanism): \(injection.detail)"
            case .log(let entry):
                return "\(at) log   \(entry.text)"
            case .trap(let trap):
                return "\(at) trap \(trap.signalName)" + (trap.site.map { " at \($0)" } ?? "")
            case .recovered(let durationMs):
                return "\(at) recovered in \(durationMs) ms"
            }
        } + effects).joined(separator: "\n")
    }

    static func trapText(_ trap: TrapRecord) -> String {
        var lines = ["signal: \(trap.signalName) (\(trap.signal))"]
        if let site = trap.site { lines.append("site: \(site)") }
        if let message = trap.message { lines.append(message) }
        if let backtrace = trap.backtrace { lines.append(""); lines.append(backtrace) }
        return lines.joined(separator: "\n")
    }

    // MARK: - Pieces

    static func element(_ name: String, message: String, type: String, text body: String) -> String {
        "      <\(name) message=\"\(attribute(message))\" type=\"\(attribute(type))\">\(text(body))</\(name)>\n"
    }

    static func count(_ verdict: Verdict, in report: RunReport) -> Int {
        report.cases.count { $0.verdict == verdict }
    }

    static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" && $0 != "\r\n" })
    }

    static func attribute(_ value: String) -> String {
        MarkupEscaping.escape(value, preservingLineBreaks: true)
    }

    static func text(_ value: String) -> String {
        MarkupEscaping.escape(value)
    }

    /// `1840` → `1.840`: JUnit times are seconds; integer arithmetic, so no locale.
    static func seconds(_ ms: Int) -> String {
        let ms = max(ms, 0)
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
