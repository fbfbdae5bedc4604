import ChaosTarget

/// The timeline section of a case in the HTML report.
enum HTMLTimeline {
    /// A case's timeline twice: as a bar (steps on one track; injections,
    /// the trap and the recovery window on a second, positioned in % of the
    /// case duration) and as a table of the same events in time order, which
    /// carries every detail and reads without CSS.
    static func html(_ report: CaseReport) -> String {
        let timeline = CaseTimeline(report)
        guard !timeline.entries.isEmpty else {
            return "<h3>Timeline</h3>\n<div class=\"timeline empty\"><p>Nothing ran.</p></div>\n"
        }
        let span = timeline.spanMs
        var html = """
            <h3>Timeline</h3>
            <div class="timeline" role="img" aria-label="Timeline of \(HTMLReportWriter.escape(report.scenario)) over \(HTMLReportWriter.milliseconds(span))">
            <div class="track steps">
            """
        for step in report.steps {
            let title = "#\(step.index) \(step.label) · \(step.startMs)–\(step.startMs + step.durationMs) ms · \(step.outcome.rawValue)"
            html += "<div class=\"seg o-\(cssName(step.outcome.rawValue))\" style=\"left:\(percent(step.startMs, of: span));"
                + "width:\(percent(step.durationMs, of: span))\" title=\"\(HTMLReportWriter.escape(title))\"></div>"
        }
        html += "</div>\n<div class=\"track marks\">"
        if let recoveryMs = report.recoveryMs, let start = timeline.recoveryStartMs {
            html += "<div class=\"recovery-span\" style=\"left:\(percent(start, of: span));"
                + "width:\(percent(recoveryMs, of: span))\" title=\"recovered in \(recoveryMs) ms\"></div>"
        }
        for injection in report.injections {
            let title = "\(injection.atMs) ms · \(injection.kind) → \(injection.target) · \(injection.detail)"
            html += "<div class=\"mark injection\" style=\"left:\(percent(injection.atMs, of: span))\" title=\"\(HTMLReportWriter.escape(title))\"></div>"
        }
        if let trap = report.trap, let trapAtMs = timeline.trapAtMs {
            let title = "\(trapAtMs) ms · \(trap.signalName)" + (trap.message.map { " · \($0)" } ?? "")
            html += "<div class=\"mark trap\" style=\"left:\(percent(trapAtMs, of: span))\" title=\"\(HTMLReportWriter.escape(title))\"></div>"
        }
        html += """
            </div>
            <div class="axis"><span>0 ms</span><span>\(HTMLReportWriter.milliseconds(span))</span></div>
            </div>
            <div class="legend"><span><i class="key step"></i>step</span><span><i class="key injection"></i>injection</span>\
            <span><i class="key trap"></i>trap</span><span><i class="key recovery"></i>recovery</span></div>

            """
        html += eventsTable(timeline)
        return html
    }

    static func eventsTable(_ timeline: CaseTimeline) -> String {
        var html = """
            <table class="events">
            <thead><tr><th class="num">At</th><th>Event</th><th>What</th><th class="num">Duration</th><th>Outcome</th></tr></thead>
            <tbody>

            """
        for entry in timeline.entries {
            let at = "<td class=\"num\">\(HTMLReportWriter.milliseconds(entry.atMs))</td>"
            switch entry.event {
            case .step(let step):
                html += """
                    <tr class="ev-step">\(at)<td class="kind">step \(step.index)</td>\
                    <td>\(HTMLReportWriter.escape(step.label))\(detailLine(step.detail))\(detailLine(failedCalls(step.calls)))</td><td class="num">\(HTMLReportWriter.milliseconds(step.durationMs))</td>\
                    <td><span class="outcome o-\(cssName(step.outcome.rawValue))">\(HTMLReportWriter.escape(step.outcome.rawValue))</span></td></tr>

                    """
            case .injection(let injection):
                var facts = ["via \(injection.mechanism)"]
                if let count = injection.count { facts.insert("at operation \(count)", at: 0) }
                let detail = [injection.detail, facts.joined(separator: ", ")].filter { !$0.isEmpty }.joined(separator: " · ")
                html += """
                    <tr class="ev-injection">\(at)<td class="kind">\(HTMLReportWriter.escape(injection.kind))</td>\
                    <td><code>\(HTMLReportWriter.escape(injection.target))</code>\(detailLine(detail))</td><td class="num"></td>\
                    <td><span class="outcome">fired</span></td></tr>

                    """
            case .log(let entry):
                var facts = ["\(entry.site) in \(entry.function)"]
                if let metadata = entry.metadataText { facts.append(metadata) }
                if let error = entry.error { facts.append("error: \(error)") }
                html += """
                    <tr class="ev-log">\(at)<td class="kind">log</td>\
                    <td>\(HTMLReportWriter.escape(entry.message))\(detailLine(facts.joined(separator: " · ")))</td><td class="num"></td>\
                    <td><span class="outcome lv-\(cssName(entry.level))">\(HTMLReportWriter.escape(entry.level))</span></td></tr>

                    """
            case .trap(let trap):
                let site = trap.site.map { " at \($0)" } ?? ""
                html += """
                    <tr class="ev-trap">\(at)<td class="kind">trap</td>\
                    <td>\(HTMLReportWriter.escape(trap.signalName + site))\(detailLine(trap.message))</td><td class="num"></td><td></td></tr>

                    """
            case .recovered(let durationMs):
                html += """
                    <tr class="ev-recovered">\(at)<td class="kind">recovery</td>\
                    <td>recovered in \(HTMLReportWriter.milliseconds(durationMs))</td><td class="num">\(HTMLReportWriter.milliseconds(durationMs))</td><td></td></tr>

                    """
            }
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    /// The calls a seam failed during a step, as the app met them:
    /// `told: write store.sqlite → SQLITE_FULL ×3; sync notes.json → EIO`.
    static func failedCalls(_ calls: [SeamCall]?) -> String? {
        let failed = (calls ?? []).filter(\.failed)
        guard !failed.isEmpty else { return nil }
        return "told: " + failed.map { "\($0.op.rawValue) \($0.file.isEmpty ? "(temporary file)" : $0.file) → \($0.result)"
            + ($0.count > 1 ? " ×\($0.count)" : "") }.joined(separator: "; ")
    }

    static func detailLine(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return "<span class=\"detail\">\(HTMLReportWriter.escape(detail))</span>"
    }

    /// `ms` as a CSS percentage of `span`, two decimals, clamped to 0–100 %.
    /// Integer arithmetic, so the output does not depend on the locale.
    static func percent(_ ms: Int, of span: Int) -> String {
        let basisPoints = min(max(ms, 0) * 10_000 / max(span, 1), 10_000)
        let fraction = basisPoints % 100
        return "\(basisPoints / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// An outcome as a class-name suffix: letters, digits and `-` only, so a
    /// worker's odd outcome cannot break out of the attribute.
    static func cssName(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.map { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "-"
        })
    }
}
