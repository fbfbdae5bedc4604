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

    @Test func recoveryStartsAtTheLaunchAfterTheLastInjection() {
        let timeline = CaseTimeline(ReportSample.passed)
        #expect(timeline.recoveryStartMs == 410)
        // 410 + 84 ms: after the launch that recovered, before the next step.
        let recovered = CaseTimeline.Entry(atMs: 494, event: .recovered(durationMs: 84))
        #expect(timeline.entries.firstIndex(of: recovered) == timeline.entries.count - 2)
    }

    @Test func recoveryStartsAtAClearStep() {
        var report = ReportSample.passed
        report.steps = [
            StepRecord(index: 0, label: "launch", startMs: 0, durationMs: 100, outcome: .ok),
            StepRecord(index: 1, label: "fault: network-down", startMs: 100, durationMs: 5, outcome: .ok),
            StepRecord(index: 2, label: "clear: network-down", startMs: 500, durationMs: 5, outcome: .ok),
        ]
        report.injections = [InjectionRecord(kind: "network-down", target: "remote", detail: "", atMs: 102, mechanism: "proxy")]
        #expect(CaseTimeline(report).recoveryStartMs == 500)
        report.steps.removeLast()
        #expect(CaseTimeline(report).recoveryStartMs == 102)
        report.injections = []
        #expect(CaseTimeline(report).recoveryStartMs == 0)
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
