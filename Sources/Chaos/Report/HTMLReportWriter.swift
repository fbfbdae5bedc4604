import ChaosTarget

/// Renders `chaos-report.html`: one self-contained page (inline CSS, no
/// script, no network) with the run, its summary, a "show only failures"
/// filter, and one section per case with its reproduce command, a timeline
/// of steps, injections, trap and recovery, and its expectations.
///
/// Every string that came from a scenario or a worker is escaped, in text
/// and in attributes alike: a trap message of `<script>` shows as text.
///
/// ```swift
/// try HTMLReportWriter.html(report).write(to: url, atomically: true, encoding: .utf8)
/// ```
package enum HTMLReportWriter {
    /// What says "Chaos wrote this page" (``ReportSet/wroteByChaos(_:)``).
    package static let generatorMeta = #"<meta name="generator" content="chaos"#

    package static func html(_ report: RunReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(generatorMeta) \(escape(report.run.chaosVersion))">
            <title>Chaos report · \(escape(report.run.id))</title>
            <style>
            \(HTMLReportStyle.stylesheet)
            </style>
            </head>
            <body>

            """
        html += runHeader(report)
        html += """
            <input type="checkbox" id="only-failures">\
            <label class="filter" for="only-failures">Show only failures</label>
            <main>

            """
        html += caseIndex(report)
        if !report.cases.contains(where: { $0.verdict.isFailure }) {
            html += "<p class=\"no-failures\">No failures in this run.</p>\n"
        }
        for (offset, caseReport) in report.cases.enumerated() {
            html += caseSection(caseReport, number: offset + 1)
        }
        html += """
            </main>
            <footer>chaos \(escape(report.run.chaosVersion)) · report schema \(report.schemaVersion)</footer>
            </body>
            </html>

            """
        return html
    }

    // MARK: - Run

    static func runHeader(_ report: RunReport) -> String {
        let run = report.run
        let overall: Verdict = switch report.exitCode {
        case 0: .passed
        case 1: report.summary.deviated > 0 ? .deviated : .inconclusive
        case 130: .interrupted
        default: .errored
        }
        let seed = run.seed.map { "\($0)" } ?? "each scenario’s own"
        var html = """
            <header class="run">
            <h1>Chaos report</h1>
            <p class="run-result">\(badge(overall)) \(report.summary.total) \(report.summary.total == 1 ? "case" : "cases") \
            · exit code \(report.exitCode)</p>
            <dl class="meta">
            <dt>Run</dt><dd><code>\(escape(run.id))</code></dd>
            <dt>Started</dt><dd>\(escape(run.startedAt))</dd>
            <dt>Seed</dt><dd>\(seed)</dd>
            <dt>Variant</dt><dd>\(escape(run.variant))</dd>
            <dt>Target</dt><dd>\(escape(run.target))</dd>
            <dt>Duration</dt><dd>\(milliseconds(report.summary.durationMs))</dd>
            <dt>Command</dt><dd><code class="command">\(escape(run.command))</code></dd>\(sweepFacts(report.sweep))\(huntFacts(report.hunt))
            </dl>
            <div class="counts">
            """
        for verdict in Verdict.allCases {
            let count = report.summary[verdict]
            html += "<div class=\"count v-\(verdict.rawValue)\(count == 0 ? " zero" : "")\"><b>\(count)</b>\(verdict.rawValue)</div>"
        }
        let idle = report.cases.filter { $0.verdict != .skipped }.flatMap { $0.faults ?? [] }.count { $0.hadEffect == false }
        html += "<div class=\"count v-inconclusive idle\(idle == 0 ? " zero" : "")\"><b>\(idle)</b>faults with no effect</div>"
        let marks = report.cases.compactMap(\.baseline)
        if !marks.isEmpty {
            for mark in ["new", "known", "fixed"] {
                let count = marks.count { $0 == mark }
                html += "<div class=\"count baseline-\(mark)\(count == 0 ? " zero" : "")\"><b>\(count)</b>\(mark) against the baseline</div>"
            }
        }
        html += "</div>\n</header>\n"
        return html
    }

    static func caseIndex(_ report: RunReport) -> String {
        guard !report.cases.isEmpty else { return "<section class=\"index\"><p>No cases ran.</p></section>\n" }
        var html = """
            <section class="index">
            <table>
            <thead><tr><th>Verdict</th><th>Scenario</th><th>System</th><th>Variant</th>\
            <th class="num">Seed</th><th class="num">Duration</th><th class="num">Recovery</th></tr></thead>
            <tbody>

            """
        for (offset, caseReport) in report.cases.enumerated() {
            html += """
                <tr class="\(filterClass(caseReport))"><td>\(badge(caseReport.verdict))\(baselineMark(caseReport))</td>\
                <td><a href="#case-\(offset + 1)">\(escape(caseReport.scenario))</a></td>\
                <td>\(escape(caseReport.system))</td><td>\(escape(caseReport.variant))</td>\
                <td class="num">\(caseReport.seed)</td><td class="num">\(milliseconds(caseReport.durationMs))</td>\
                <td class="num">\(caseReport.recoveryMs.map(milliseconds) ?? "—")</td></tr>

                """
        }
        html += "</tbody>\n</table>\n</section>\n"
        return html
    }

    // MARK: - Case

    static func caseSection(_ report: CaseReport, number: Int) -> String {
        let recovery = if let recoveryMs = report.recoveryMs {
            "<span class=\"recovery\">recovered in \(milliseconds(recoveryMs))</span>"
        } else {
            "<span class=\"recovery none\">recovery not measured</span>"
        }
        var html = """
            <section class="case v-\(report.verdict.rawValue) \(filterClass(report))" id="case-\(number)">
            <div class="case-head">\(badge(report.verdict))\(baselineMark(report))<h2>\(escape(report.scenario))</h2></div>
            <p class="case-summary">\(escape(report.summary))</p>\(report.explanation.map { "\n<p class=\"explanation\"><b>What happened:</b> \(escape($0))</p>" } ?? "")
            <p class="facts"><span>system <b>\(escape(report.system))</b></span>\
            <span>variant <b>\(escape(report.variant))</b></span><span>seed <b>\(report.seed)</b></span>\
            <span>duration <b>\(milliseconds(report.durationMs))</b></span>\(recovery)</p>
            <div class="reproduce"><h3>Reproduce</h3><code class="command">\(escape(report.reproduce))</code></div>

            """
        if let error = report.error {
            let title = switch report.verdict {
            case .skipped: "Skipped"
            case .inconclusive: "Inconclusive: a fault had no effect, so the case proves nothing"
            case .interrupted: "Interrupted"
            default: "Harness error"
            }
            html += "<div class=\"harness-error\"><strong>\(title)</strong><pre>\(escape(error))</pre></div>\n"
        }
        html += HTMLTimeline.html(report)
        html += faultsTable(report.faults ?? [])
        if let trap = report.trap {
            html += trapBox(trap)
        }
        html += expectationsTable(report.expectations)
        if let left = report.leftBehind, !left.isEmpty {
            html += "<div class=\"left-behind\"><strong>Left running by the app after its workers ended, killed by Chaos</strong><ul>"
                + left.map { "<li><code>\(escape($0))</code></li>" }.joined() + "</ul></div>\n"
        }
        html += """
            <p class="provenance">scenario file <code>\(escape(report.scenarioFile))</code> \
            · sha256 <code title="\(escape(report.scenarioHash))">\(escape(String(report.scenarioHash.prefix(12))))</code> \
            · \(report.workerLaunches) worker \(report.workerLaunches == 1 ? "launch" : "launches")</p>
            </section>

            """
        return html
    }

    /// A sweep's coverage, for the run's facts.
    static func sweepFacts(_ sweep: SweepSummary?) -> String {
        guard let sweep else { return "" }
        let unit = sweep.kind == "io" ? "I/O operations" : "crash points"
        let covered = "\(sweep.pointsCovered) of \(sweep.pointsTotal.map(String.init) ?? "?") \(unit)"
        let failures = sweep.failures.isEmpty ? "none"
            : sweep.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\n<dt>Sweep</dt><dd>\(escape(sweep.kind)) sweep of \(escape(sweep.scenario))\(sweep.shard.map { ", shard \(escape($0))" } ?? ""): "
            + "\(sweep.trials) trials, \(covered) covered, \(sweep.idleTrials) whose fault never fired"
            + (sweep.fromImages.map { "; \($0.trials) judged from an image of their cut (\($0.launches) launches on images)" } ?? "")
            + "; failures: \(escape(failures))"
            + (sweep.pointsTotal == 0 && sweep.shard == nil ? " — inconclusive: no seam saw the workload touch the target's files" : "") + "</dd>"
    }

    /// A hunt's schedules and findings, for the run's facts: each finding's file, how
    /// it fails and how far it shrank (its case below shows the run of that file).
    static func huntFacts(_ hunt: HuntSummary?) -> String {
        guard let hunt else { return "" }
        var html = "\n<dt>Hunt</dt><dd>seed \(hunt.seed)\(hunt.shard.map { ", shard \(escape($0))" } ?? ""): \(hunt.schedules) schedules, "
            + "\(hunt.bitten) bitten by a fault, \(hunt.idle) whose faults never fired (no evidence), \(hunt.failedSchedules) failed"
            + (hunt.errored > 0 ? ", \(hunt.errored) errored" : "") + "; \(hunt.points.count) fault points hit by the plain run</dd>"
        html += "\n<dt>Findings</dt><dd>" + (hunt.findings.isEmpty ? "none" : hunt.findings.map { finding in
            let shrunk = finding.cutShort ? ", cut short with \(finding.untriedSteps ?? 0) steps not yet tried" : ", minimal"
            return "<code>\(escape(finding.file))</code> — \(escape(finding.failure)), \(finding.failingSchedules) schedules, "
                + "shrunk \(finding.stepsBefore) → \(finding.stepsAfter) steps\(shrunk)" + (finding.rateText.map { "; fails \(escape($0))" } ?? "")
                + (finding.reproduced ? "" : " (did not fail again from the file)")
        }.joined(separator: "<br>")) + "</dd>"
        return html
    }

    /// Each armed fault and what it did, measured.
    static func faultsTable(_ faults: [FaultActivity]) -> String {
        guard !faults.isEmpty else { return "" }
        var html = "<h3>Faults and their effect</h3>\n<table class=\"faults\">\n<tbody>\n"
        for fault in faults {
            let idle = fault.hadEffect == false
            html += "<tr\(idle ? " class=\"idle\"" : "")><td><code>\(escape(fault.id))</code></td><td>\(escape(fault.label))</td>"
                + "<td class=\"num\">\(fault.hits.map { "\($0) hits" } ?? "")</td><td class=\"num\">\(fault.fired) fired</td>"
                + "<td>\(escape(fault.effect ?? "not measured"))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func trapBox(_ trap: TrapRecord) -> String {
        var html = """
            <h3>Trap</h3>
            <div class="trap-box">
            <dl class="meta">
            <dt>Signal</dt><dd>\(escape(trap.signalName)) (\(trap.signal))</dd>

            """
        if let message = trap.message {
            html += "<dt>Message</dt><dd><pre>\(escape(message))</pre></dd>\n"
        }
        if let site = trap.site {
            html += "<dt>Site</dt><dd><code>\(escape(site))</code></dd>\n"
        }
        html += "</dl>\n"
        if let backtrace = trap.backtrace {
            html += "<details><summary>Backtrace</summary><pre>\(escape(backtrace))</pre></details>\n"
        }
        html += "</div>\n"
        return html
    }

    static func expectationsTable(_ expectations: [ExpectationResult]) -> String {
        guard !expectations.isEmpty else { return "<h3>Expectations</h3>\n<p>None checked.</p>\n" }
        var html = """
            <h3>Expectations</h3>
            <table class="expectations">
            <thead><tr><th>Expectation</th><th>Result</th><th>Expected</th><th>Observed</th></tr></thead>
            <tbody>

            """
        for expectation in expectations {
            let result = expectation.passed
                ? "<span class=\"pass\">✓ passed</span>" : "<span class=\"fail\">✗ failed</span>"
            let detail = expectation.detail.map { "<span class=\"detail\">\(escape($0))</span>" } ?? ""
            html += """
                <tr class="\(expectation.passed ? "passed" : "failed")"><td><code>\(escape(expectation.label))</code>\(detail)</td>\
                <td>\(result)</td><td>\(escape(expectation.expected))</td><td>\(escape(expectation.observed))</td></tr>

                """
        }
        html += "</tbody>\n</table>\n"
        return html
    }

    // MARK: - Pieces

    static func escape(_ text: String) -> String {
        MarkupEscaping.escape(text)
    }

    static func badge(_ verdict: Verdict) -> String {
        "<span class=\"badge v-\(verdict.rawValue)\">\(verdict.rawValue)</span>"
    }

    /// The case against `--baseline`: a new failure, a known one, or a fix.
    static func baselineMark(_ report: CaseReport) -> String {
        guard let mark = report.baseline else { return "" }
        let title = switch mark {
        case "new": "fails now; passed or absent in the baseline"
        case "known": "failed in the baseline too"
        default: "failed in the baseline; passes now"
        }
        return " <span class=\"baseline baseline-\(escape(mark))\" title=\"\(title)\">\(escape(mark))</span>"
    }

    /// `ok` marks what "show only failures" hides.
    static func filterClass(_ report: CaseReport) -> String {
        report.verdict.isFailure ? "failure" : "ok"
    }

    /// `840 ms`, `12 840 ms` (a narrow no-break space between thousands).
    static func milliseconds(_ ms: Int) -> String {
        var digits = String(ms.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (ms < 0 ? "-" : "") + groups.joined(separator: "\u{202F}") + " ms"
    }
}
