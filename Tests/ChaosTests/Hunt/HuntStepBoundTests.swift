@testable import Chaos
import Testing

/// A hang under the hunt's bound on one step that answered at the case's full timeout
/// was a slow step: the bound is raised past it, launches and other steps apart, so the
/// shrink that follows can see the failure it is shrinking.
@Suite struct HuntStepBoundTests {
    @Test func theBoundIsRaisedPastTheSlowStepOfItsKind() {
        let steps: [HuntStep] = [.launch, .fault("blackhole", []), .action("orders.add", []), .launch]
        var report = ReportSample.deviated
        report.steps = [StepRecord(index: 1, label: "launch", startMs: 0, durationMs: 400, outcome: "ok"),
                        StepRecord(index: 2, label: "fault", startMs: 400, durationMs: 1, outcome: "ok"),
                        StepRecord(index: 3, label: "do orders.add", startMs: 401, durationMs: 2_000, outcome: "ok"),
                        StepRecord(index: 4, label: "launch", startMs: 2_401, durationMs: 10_000, outcome: "ok")]
        let bound = StepBound(launch: .seconds(6), action: .seconds(6))
        let raised = Hunter.stepBound(bound, pastTheStepsOf: report, steps: steps)
        #expect(raised.launch == .seconds(16), "a launch that waits out a 10 s connect timeout, half as long again and a second")
        #expect(raised.action == .seconds(6), "no action was slow: its bound stays")
        #expect(Hunter.stepBound(StepBound(launch: .seconds(30), action: .seconds(6)), pastTheStepsOf: report, steps: steps).launch == .seconds(30),
                "a bound is never lowered")
    }

    @Test func aSlowPlainLaunchLeavesTheActionsTheirOwnBound() {
        // The Orders example: a launch makes a database on the server and connects (2.5 s
        // in a plain run); its actions answer in milliseconds.
        let bound = StepBound.learnt(slowestLaunchMs: 2_500, slowestActionMs: 30)
        #expect(bound.launch == .seconds(25))
        #expect(bound.action == .seconds(6), "a hang at an action is known in 6 s, not at the launch's bound")
        #expect(StepBound.learnt(slowestPlainMs: 2_500) == StepBound(launch: .seconds(25), action: .seconds(25)))
    }
}
