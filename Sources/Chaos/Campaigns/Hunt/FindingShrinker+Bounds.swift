import ChaosTarget
import Foundation

/// The bounds a shrink holds its candidates to: a hang's step held short, a slow step
/// that answers given room past it, a failed read asked again no longer than the hunt
/// saw one recover.
extension FindingShrinker {
    /// What a hang's run at the case's full timeout takes at most, and a second.
    static var confirmingAHang: Duration { .seconds(HuntSchedule.timeoutSeconds + 1) }

    /// Whether a hang's run at the case's full timeout failed another way that is the
    /// failure to shrink instead: at a step, or the oracle's expectations.
    static func isAnother(_ hang: HuntOracle.Failure, _ failure: HuntOracle.Failure?) -> Bool {
        guard let failure, !hang.sameCore(failure) else { return false }
        return failure.isAtAStep || failure.kind == .expectations
    }

    /// The least bound on a step while a hang is shrunk.
    static let hangShrinkFloor: Duration = .seconds(3)

    /// The bound on one step while a hang is shrunk: ten times the slowest step its first
    /// run answered (launches and the rest apart), at least ``hangShrinkFloor`` and at
    /// most the hunt's `bound`. Each round of a hang's shrink waits out one candidate that
    /// still hangs: the bound is what a round costs. A step that answered slowly in that
    /// run (an app that backs off before it retries) keeps the hunt's bound; a launch
    /// that hung keeps it too (it may be a connect timeout that answers). A candidate
    /// wrongly held hung is caught when the file runs at the case's full timeout.
    static func hangShrinkBound(_ bound: StepBound, report: CaseReport, steps: [WrittenStep], struckLaunch: Bool) -> StepBound {
        let slowest = slowestAnswers(in: report, steps: steps)
        func short(_ ms: Int, hunt: Duration) -> Duration { min(hunt, max(hangShrinkFloor, .milliseconds(10 * ms))) }
        return StepBound(launch: struckLaunch ? bound.launch : short(slowest.launchMs, hunt: bound.launch),
                         action: short(slowest.actionMs, hunt: bound.action))
    }

    /// `bound` raised past the slowest launch and the slowest other step of `report` that
    /// answered (half as long again, and a second): what a slow step that answers needs.
    /// A step that hung there too raises nothing: the rounds after keep a hang's cost short.
    static func stepBound(_ bound: StepBound, pastTheStepsOf report: CaseReport, steps: [WrittenStep]) -> StepBound {
        let slowest = slowestAnswers(in: report, steps: steps)
        func past(_ ms: Int) -> Duration { .milliseconds(ms * 3 / 2 + 1_000) }
        return StepBound(launch: max(bound.launch, past(slowest.launchMs)), action: max(bound.action, past(slowest.actionMs)))
    }

    /// The slowest launch and the slowest other step the app answered in `report` (0 for
    /// none); `steps` are the schedule's, which tell the launches.
    static func slowestAnswers(in report: CaseReport, steps: [WrittenStep]) -> (launchMs: Int, actionMs: Int) {
        var slowest = (launchMs: 0, actionMs: 0)
        for record in report.steps where report.answered(record) {
            if steps.indices.contains(record.index - 1), steps[record.index - 1] == .launch {
                slowest.launchMs = max(slowest.launchMs, record.durationMs)
            } else {
                slowest.actionMs = max(slowest.actionMs, record.durationMs)
            }
        }
        return slowest
    }

    /// A shrink's cap on how long a failed read is asked again: three times the slowest
    /// recovery the hunt's schedules showed, at least a second; nil when that is not
    /// shorter than the oracle's bound (an app that backs off before it retries keeps the
    /// whole bound). What a shrunk file shows is then run at the bound itself.
    static func recoveryCap(slowestRecoveryMs: Int, bound: Duration = HuntOracle.recoveryBound) -> Duration? {
        let cap = max(Duration.seconds(1), .milliseconds(3 * slowestRecoveryMs))
        return cap < bound ? cap : nil
    }
}

extension CaseReport {
    /// Whether the app answered `step`: it did not hang (under a bound or until the
    /// case's timeout) — a hang is the step the case ended at.
    func answered(_ step: StepRecord) -> Bool {
        guard step.outcome != .timedOut else { return false }
        guard step.index == steps.last?.index, step.outcome == .error else { return true }
        return !expectations.contains { $0.end?.isHang == true }
    }
}
