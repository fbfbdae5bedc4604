import ChaosTarget
import Foundation

/// A lock-guarded flag one thread sets and another reads: a hang's run at the case's full
/// timeout tells its shrink, running beside it, to stop.
private final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension Hunter {
    /// How often the first schedule that failed one way fails, and that schedule shrunk.
    ///
    /// A hang at a launch is also run once at the case's full timeout, beside its rate and
    /// its shrink (it waits, holding no job): one that answers there (a launch that waits
    /// out a library's 10 s connect timeout) was a slow step — its shrink is stopped, the
    /// bound raised past it (for this shrink and the rounds after) and it is shrunk again
    /// as what it is; one that hangs there too is one more run of its rate. A hang at an
    /// action is confirmed by its file's runs at the full timeout alone (``write(_:from:shrunk:names:failing:rate:tries:until:fixedName:)``
    /// judges one that answers there as what it is). A hang's candidates are held to a
    /// shorter bound than the hunt's (``hangShrinkBound(_:report:steps:struckLaunch:)``).
    mutating func rateAndShrink(_ first: inout Failing, deadline: ContinuousClock.Instant, slowestRecoveryMs: Int?)
        -> (rate: HuntShrinker.Rate, shrunk: HuntShrinker.Outcome, runs: Int) {
        guard first.failure.kind == .hang, first.failure.struckLaunch, ContinuousClock.now + Self.confirmingAHang < deadline,
              let scenario = try? first.schedule.scenario(name: first.schedule.caseName, summary: "Schedule \(first.schedule.index) of hunt seed \(seed).",
                                                          file: "hunt/\(first.schedule.caseName).yaml")
        else { return rateAndShrink(first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs) }
        let hanging = first
        let hunter = self
        let another = SharedFlag()
        let ran = runBeside({ () -> CaseReport? in
            let full = hunter.runScenario(scenario, times: 1).first.flatMap { $0 }
            if let full, Self.isAnother(hanging.failure, hunter.judge(hanging.schedule, full)) { another.set() }
            return full
        }, {
            hunter.rateAndShrink(hanging, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs, stop: { another.isSet })
        })
        guard let full = ran.aside else { return ran.main }
        let failure = judge(first.schedule, full)
        if first.failure.sameCore(failure) {
            var rate = ran.main.rate
            rate.failed += 1
            rate.tries += 1
            return (rate, ran.main.shrunk, ran.main.runs + 1)
        }
        guard let failure, Self.isAnother(first.failure, failure) else { return (ran.main.rate, ran.main.shrunk, ran.main.runs + 1) }
        Self.debug("schedule \(first.schedule.index): \(first.failure.signature) under the bound is \(failure.signature) at the full timeout")
        first.failure = failure
        first.report = full
        // A slow step, not a hang: the bound is raised past it, for this shrink (its
        // candidates would otherwise all hang under the bound, each a rejected run) and
        // for the rounds after it.
        options.stepBound = options.stepBound.map { Self.stepBound($0, pastTheStepsOf: full, steps: first.schedule.steps) }
        let again = rateAndShrink(first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs)
        return (again.rate, again.shrunk, ran.main.runs + 1 + again.runs)
    }

    /// Whether a hang's run at the case's full timeout failed another way that is the
    /// failure to shrink instead: at a step, or the oracle's expectations.
    static func isAnother(_ hang: HuntOracle.Failure, _ failure: HuntOracle.Failure?) -> Bool {
        guard let failure, !hang.sameCore(failure) else { return false }
        return failure.isAtAStep || failure.kind == .expectations
    }

    /// The rate and the shrink of `first` as it stands, stopping early when `stop` says.
    func rateAndShrink(_ first: Failing, deadline: ContinuousClock.Instant, slowestRecoveryMs: Int?, alreadyFailed: Int = 1,
                       stop: @escaping () -> Bool = { false }) -> (rate: HuntShrinker.Rate, shrunk: HuntShrinker.Outcome, runs: Int) {
        var hunter = self
        if first.failure.kind == .hang {
            hunter.options.stepBound = options.stepBound.map {
                Self.hangShrinkBound($0, report: first.report, steps: first.schedule.steps, struckLaunch: first.failure.struckLaunch)
            }
        }
        // Candidates ask a failed read again for no longer than the hunt's slowest recovery
        // allows (a candidate that stays broken waits that, not the scenario's 5 s); the
        // file is run at the scenario's own bound before it is written.
        var shrinking = hunter
        shrinking.options.recoveryPollCap = slowestRecoveryMs.flatMap { Self.recoveryCap(slowestRecoveryMs: $0) }
        var shrinker = HuntShrinker(evaluate: { shrinking.runSchedules($0) }, judge: judge, jobs: jobs, deadline: deadline)
        shrinker.stop = stop
        func rate() -> (rate: HuntShrinker.Rate, runs: Int) {
            var runs = 0
            guard ContinuousClock.now < deadline else { return (.always, 0) }
            return (hunter.rate(of: first.schedule, failing: first.failure, alreadyFailed: alreadyFailed, runs: &runs, until: deadline).rate, runs)
        }
        guard first.failure.kind == .hang else {
            let rated = rate()
            let shrunk = shrinker.shrink(first.schedule, report: first.report, failure: first.failure, rate: rated.rate)
            return (rated.rate, shrunk, rated.runs + shrunk.runs)
        }
        // A hang's rate runs beside its shrink, which goes on meanwhile as for a failure
        // that shows every time (the rate's run waits out the bound as a round does); one
        // that did not hang again is shrunk once more, as the flaky failure it is.
        let ran = runBeside(rate) { shrinker.shrink(first.schedule, report: first.report, failure: first.failure, rate: .always) }
        guard !ran.aside.rate.isFull else { return (ran.aside.rate, ran.main, ran.aside.runs + ran.main.runs) }
        let again = shrinker.shrink(first.schedule, report: first.report, failure: first.failure, rate: ran.aside.rate)
        return (ran.aside.rate, again, ran.aside.runs + ran.main.runs + again.runs)
    }

    /// What a hang's run at the case's full timeout takes at most, and a second.
    static var confirmingAHang: Duration { .seconds(HuntSchedule.timeoutSeconds + 1) }

    /// The least bound on a step while a hang is shrunk.
    static let hangShrinkFloor: Duration = .seconds(3)

    /// The bound on one step while a hang is shrunk: ten times the slowest step its first
    /// run answered (launches and the rest apart), at least ``hangShrinkFloor`` and at
    /// most the hunt's `bound`. Each round of a hang's shrink waits out one candidate that
    /// still hangs: the bound is what a round costs. A step that answered slowly in that
    /// run (an app that backs off before it retries) keeps the hunt's bound; a launch
    /// that hung keeps it too (it may be a connect timeout that answers). A candidate
    /// wrongly held hung is caught when the file runs at the case's full timeout.
    static func hangShrinkBound(_ bound: StepBound, report: CaseReport, steps: [HuntStep], struckLaunch: Bool) -> StepBound {
        let slowest = slowestAnswers(in: report, steps: steps)
        func short(_ ms: Int, hunt: Duration) -> Duration { min(hunt, max(hangShrinkFloor, .milliseconds(10 * ms))) }
        return StepBound(launch: struckLaunch ? bound.launch : short(slowest.launchMs, hunt: bound.launch),
                         action: short(slowest.actionMs, hunt: bound.action))
    }

    /// `bound` raised past the slowest launch and the slowest other step of `report` that
    /// answered (half as long again, and a second): what a slow step that answers needs.
    /// A step that hung there too raises nothing: the rounds after keep a hang's cost short.
    static func stepBound(_ bound: StepBound, pastTheStepsOf report: CaseReport, steps: [HuntStep]) -> StepBound {
        let slowest = slowestAnswers(in: report, steps: steps)
        func past(_ ms: Int) -> Duration { .milliseconds(ms * 3 / 2 + 1_000) }
        return StepBound(launch: max(bound.launch, past(slowest.launchMs)), action: max(bound.action, past(slowest.actionMs)))
    }

    /// The slowest launch and the slowest other step the app answered in `report` (0 for
    /// none); `steps` are the schedule's, which tell the launches.
    static func slowestAnswers(in report: CaseReport, steps: [HuntStep]) -> (launchMs: Int, actionMs: Int) {
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
