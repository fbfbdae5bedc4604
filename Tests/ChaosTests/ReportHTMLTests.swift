import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportHTMLTests {
    let html = HTMLReportWriter.html(ReportSample.report)

    func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func escapesWhatCameFromAWorker() {
        #expect(!html.contains("<script"))
        #expect(!html.contains("alert(1)</script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &amp; ampersands &#39;single&#39;"))
        #expect(!html.contains("<b>bold</b>"))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt;"))
        // Inside an attribute too: the trap mark's title carries the message.
        #expect(html.contains("title=\"145 ms · SIGILL · Fatal error: &lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot;"))
        #expect(!html.contains("\u{0}"))
    }

    @Test func isSelfContained() {
        #expect(!html.contains("http://"))
        #expect(!html.contains("https://"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("url("))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<style>"))
    }

    @Test func showsTheRun() {
        #expect(html.contains("run-2025-06-01-0930-a1b2"))
        #expect(html.contains("2025-06-01T09:30:00Z"))
        #expect(html.contains("each scenario’s own"))
        #expect(html.contains("chaos run --all --report-dir reports"))
        #expect(html.contains("exit code 2"))
        for verdict in Verdict.allCases {
            #expect(html.contains("class=\"count v-\(verdict.rawValue)"))
        }
    }

    @Test func showsEachCase() {
        #expect(occurrences(of: "<section class=\"case ", in: html) == 4)
        #expect(occurrences(of: "<div class=\"timeline", in: html) == 4)
        #expect(occurrences(of: "<div class=\"timeline empty\"><p>Nothing ran.</p></div>", in: html) == 1)
        for report in ReportSample.report.cases {
            #expect(html.contains("<code class=\"command\">\(HTMLReportWriter.escape(report.reproduce))</code>"))
        }
        #expect(html.contains("chaos run quiz-too-few-words --seed 6745 --variant legacy --target-exec &quot;/tmp/my app&quot;"))
        #expect(html.contains("recovered in 84 ms"))
        #expect(html.contains("recovery not measured"))
        #expect(html.contains("tmpfs mounts need root"))
    }

    @Test func timelineShowsStepsInjectionsTrapAndRecovery() {
        let section = HTMLReportWriter.caseSection(ReportSample.deviated, number: 2)
        #expect(occurrences(of: "<div class=\"seg ", in: section) == 3)
        #expect(occurrences(of: "<div class=\"mark injection\"", in: section) == 1)
        #expect(occurrences(of: "<div class=\"mark trap\"", in: section) == 1)
        #expect(section.contains("<tr class=\"ev-trap\">"))
        #expect(section.contains("<details><summary>Backtrace</summary>"))
        #expect(section.contains("QuizGenerator.swift:42"))
        #expect(section.contains("at operation 3"))
        // 120 ms of 600 ms.
        #expect(section.contains("<div class=\"mark injection\" style=\"left:20.00%\""))

        let passed = HTMLReportWriter.caseSection(ReportSample.passed, number: 1)
        #expect(passed.contains("<div class=\"recovery-span\""))
        #expect(passed.contains("<tr class=\"ev-recovered\">"))
    }

    @Test func expectationsAreATable() {
        let section = HTMLReportWriter.caseSection(ReportSample.deviated, number: 2)
        #expect(section.contains("<table class=\"expectations\">"))
        #expect(occurrences(of: "✗ failed", in: section) == 2)
        #expect(occurrences(of: "✓ passed", in: section) == 1)
        #expect(section.contains("<td>SIGILL at QuizGenerator.swift:42</td>"))
    }

    @Test func failureFilterWorksWithoutJavaScript() {
        #expect(html.contains("<input type=\"checkbox\" id=\"only-failures\">"))
        #expect(html.contains("<label class=\"filter\" for=\"only-failures\">"))
        #expect(HTMLReportStyle.stylesheet.contains("#only-failures:checked ~ main .ok { display: none; }"))
        // The checkbox must be a sibling before <main> for `~` to reach it.
        let checkbox = try! #require(html.range(of: "id=\"only-failures\""))
        let main = try! #require(html.range(of: "<main>"))
        #expect(checkbox.upperBound < main.lowerBound)
        #expect(html.contains("<section class=\"case v-passed ok\" id=\"case-1\">"))
        #expect(html.contains("<section class=\"case v-skipped ok\" id=\"case-4\">"))
        #expect(html.contains("<section class=\"case v-deviated failure\" id=\"case-2\">"))
        #expect(html.contains("<section class=\"case v-errored failure\" id=\"case-3\">"))
    }

    @Test func formatsWithoutALocale() {
        #expect(HTMLTimeline.percent(1, of: 3) == "33.33%")
        #expect(HTMLTimeline.percent(600, of: 600) == "100.00%")
        #expect(HTMLTimeline.percent(900, of: 600) == "100.00%")
        #expect(HTMLTimeline.percent(-5, of: 600) == "0.00%")
        #expect(HTMLTimeline.percent(3, of: 1000) == "0.30%")
        #expect(HTMLReportWriter.milliseconds(84) == "84 ms")
        #expect(HTMLReportWriter.milliseconds(12_840) == "12\u{202F}840 ms")
        #expect(HTMLReportWriter.milliseconds(1_000_000) == "1\u{202F}000\u{202F}000 ms")
        #expect(HTMLTimeline.cssName("timed-out") == "timed-out")
        #expect(HTMLTimeline.cssName("x\" onmouseover=\"y") == "x--onmouseover--y")
    }

    @Test func anEmptyRunStillRenders() {
        let html = HTMLReportWriter.html(RunReport(run: ReportSample.report.run, cases: []))
        #expect(html.contains("No cases ran."))
        #expect(html.contains("exit code 0"))
    }
}
