@testable import Chaos
import Testing

/// A hang under the hunt's bound on one step that answered at the case's full timeout
/// was a slow step: the bound is raised past it, launches and other steps apart, so the
/// shrink that follows can see the failure it is shrinking.
@Suite struct HuntStepBoundTests {
    @Test func theBoundIsRaisedPastTheSlowStepOfItsKind() {
        let steps: [WrittenStep] = [.launch, .fault("blackhole", []), .action("orders.add", []), .launch]
        var report = ReportSample.deviated
        report.steps = [StepRecord(index: 1, label: "launch", startMs: 0, durationMs: 400, outcome: .ok),
                        StepRecord(index: 2, label: "fault", startMs: 400, durationMs: 1, outcome: .ok),
                        StepRecord(index: 3, label: "do orders.add", startMs: 401, durationMs: 2_000, outcome: .ok),
                        StepRecord(index: 4, label: "launch", startMs: 2_401, durationMs: 10_000, outcome: .ok)]
        let bound = StepBound(launch: .seconds(6), action: .seconds(6))
        let raised = FindingShrinker.stepBound(bound, pastTheStepsOf: report, steps: steps)
        #expect(raised.launch == .seconds(16), "a launch that waits out a 10 s connect timeout, half as long again and a second")
        #expect(raised.action == .seconds(6), "no action was slow: its bound stays")
        #expect(FindingShrinker.stepBound(StepBound(launch: .seconds(30), action: .seconds(6)), pastTheStepsOf: report, steps: steps).launch == .seconds(30),
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

    @Test func aStepThatHungThereTooRaisesNothing() {
        // A hang under the bound that hangs at the full timeout as well (its signature
        // changed on the way): the rounds after keep the bound a hang is known by.
        let steps: [WrittenStep] = [.launch, .fault("blackhole", []), .action("orders.add", [])]
        var report = ReportSample.deviated
        report.steps = [StepRecord(index: 1, label: "launch", startMs: 0, durationMs: 200, outcome: .ok),
                        StepRecord(index: 2, label: "fault", startMs: 200, durationMs: 1, outcome: .ok),
                        StepRecord(index: 3, label: "do orders.add", startMs: 201, durationMs: 19_900, outcome: .timedOut,
                                   detail: "hung: no answer to 'orders.add' in 19.9 s, until the case's timeout")]
        let bound = StepBound(launch: .seconds(6), action: .seconds(6))
        #expect(FindingShrinker.stepBound(bound, pastTheStepsOf: report, steps: steps) == bound)
        report.steps[2].outcome = .error
        report = ReportSample.hung(report, during: "orders.add")
        #expect(FindingShrinker.stepBound(bound, pastTheStepsOf: report, steps: steps) == bound, "a hang under a bound is no answer either")
    }

    /// A hang's shrink waits out one candidate that still hangs a round: its bound is
    /// ten times the slowest step its first run answered, at least 3 s, at most the hunt's.
    @Test func aHangIsShrunkUnderAShorterBound() {
        let steps: [WrittenStep] = [.launch, .fault("blackhole", []), .action("orders.list", []), .action("orders.add", [])]
        var report = ReportSample.deviated
        report.steps = [StepRecord(index: 1, label: "launch", startMs: 0, durationMs: 150, outcome: .ok),
                        StepRecord(index: 2, label: "fault", startMs: 150, durationMs: 1, outcome: .ok),
                        StepRecord(index: 3, label: "do orders.list", startMs: 151, durationMs: 40, outcome: .ok),
                        StepRecord(index: 4, label: "do orders.add", startMs: 191, durationMs: 6_000, outcome: .error,
                                   detail: "hung: no answer to 'orders.add' in 6.0 s, until the bound on one step learnt from a plain run")]
        report = ReportSample.hung(report, during: "orders.add")
        let hunt = StepBound(launch: .seconds(25), action: .seconds(6))
        let short = FindingShrinker.hangShrinkBound(hunt, report: report, steps: steps, struckLaunch: false)
        #expect(short == StepBound(launch: .seconds(3), action: .seconds(3)), "quick answers: the floor, the hung step not counted")
        #expect(FindingShrinker.hangShrinkBound(hunt, report: report, steps: steps, struckLaunch: true).launch == .seconds(25),
                "a launch that hung keeps the hunt's bound: it may be a connect timeout that answers")
        // An app that backs off 2 s before it retries: ten times that is past the hunt's bound.
        report.steps[2].durationMs = 2_000
        #expect(FindingShrinker.hangShrinkBound(hunt, report: report, steps: steps, struckLaunch: false).action == .seconds(6))
        report.steps[2].durationMs = 450
        #expect(FindingShrinker.hangShrinkBound(hunt, report: report, steps: steps, struckLaunch: false).action == .milliseconds(4_500))
    }
}
