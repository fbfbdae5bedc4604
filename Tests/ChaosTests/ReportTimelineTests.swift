import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportTimelineTests {
    @Test func ordersEventsByTimeStepsFirst() {
        let timeline = CaseTimeline(ReportSample.deviated)
        let times = timeline.entries.map(\.atMs)
        #expect(times == times.sorted())
        #expect(timeline.trapAtMs == 145)
        #expect(timeline.spanMs == 600)
        guard case .trap = timeline.entries.last?.event else {
            Issue.record("the trap comes last")
            return
        }
    }

    @Test func recoveryIsDrawnFromWhereTheRunnerMeasuredItsStart() {
        var report = ReportSample.passed
        let timeline = CaseTimeline(report)
        #expect(timeline.recoveryStartMs == 410)
        // 410 + 84 ms: after the launch that recovered, before the next step.
        let recovered = CaseTimeline.Entry(atMs: 494, event: .recovered(durationMs: 84))
        #expect(timeline.entries.firstIndex(of: recovered) == timeline.entries.count - 2)
        report.recoveryStartMs = nil
        #expect(CaseTimeline(report).recoveryStartMs == nil, "a report that does not say where recovery started draws no window")
    }

    @Test func aSpanIsNeverZeroAndCoversEverything() {
        #expect(CaseTimeline(ReportSample.skipped).spanMs == 1)
        var late = ReportSample.passed
        late.durationMs = 100
        #expect(CaseTimeline(late).spanMs == 860)
    }

    @Test func escapingReplacesWhatXMLForbids() {
        #expect(MarkupEscaping.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(MarkupEscaping.escape("x\u{0}y\u{1B}z\u{FFFF}") == "x\u{FFFD}y\u{FFFD}z\u{FFFD}")
        #expect(MarkupEscaping.escape("a\r\nb\tc") == "a&#13;\nb\tc")
        #expect(MarkupEscaping.escape("a\nb\tc", preservingLineBreaks: true) == "a&#10;b&#9;c")
        #expect(MarkupEscaping.escape("é 😀") == "é 😀")
    }
}
