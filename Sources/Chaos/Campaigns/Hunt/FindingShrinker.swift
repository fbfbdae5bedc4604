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

/// Makes findings of the first schedules that failed each distinct way: rates each
/// (``HuntConfirmation``), shrinks it (``HuntShrinker``) and writes it (``FindingWriter``).
/// Its runner holds the hunt's bound on a step, raised past a step a hang turned out to
/// be slow at: the rounds after run at that bound.
struct FindingShrinker {
    private(set) var runner: HuntRunner
    var writer: FindingWriter

    var confirmation: HuntConfirmation { HuntConfirmation(runner: runner) }

    /// A finding made of the first schedule that failed one distinct way: how often it
    /// fails, shrunk, written and run from its file.
    /// Past `deadline` (its share of the budget) it is not shrunk further; past `end`
    /// (the hunt's) its file runs once rather than a few times.
    mutating func finding(for first: HuntFound.Failing, deadline: ContinuousClock.Instant, end: ContinuousClock.Instant?,
                          names: inout Set<String>, slowestRecoveryMs: Int, failing: Int) throws(Hunter.Problem) -> FindingWriter.Written {
        var first = first
        // A hang's file is confirmed at the case's full timeout: its shrink leaves room for
        // that run before the hunt's end, so a hunt ends within its budget.
        let deadline = first.failure.kind == .hang ? min(deadline, end.map { $0 - Self.confirmingAHang } ?? deadline) : deadline
        let shrinking = rateAndShrink(&first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs)
        let shrunk = shrinking.shrunk
        // Shrunk, the faults at work are the ones the failure needs.
        let failure = runner.judge(shrunk.schedule, shrunk.report) ?? first.failure
        let tries = end.map { ContinuousClock.now < $0 } ?? true ? HuntConfirmation.triesAfter : 1
        var written = try writer.write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: failing, rate: shrinking.rate,
                                       tries: tries, until: deadline)
        written.runs += shrinking.runs
        // A hang whose file answered at the full timeout was a slow step: the rounds after
        // hold that step to a bound past it.
        if first.failure.kind == .hang, !first.failure.sameCore(written.failure) {
            raiseBound(pastTheStepsOf: written.report, steps: shrunk.schedule.steps)
        }
        return written
    }

    /// A finding cut short, shrunk on from its file (where shrinking stopped) until the
    /// `deadline`, and written again under its name. Nil when its file cannot be read back,
    /// or nothing smaller was found in the time.
    func resume(_ finding: HuntFinding, failure: HuntOracle.Failure, first: HuntFound.Failing,
                deadline: ContinuousClock.Instant) throws(Hunter.Problem) -> FindingWriter.Written? {
        guard var schedule = try? HuntSchedule(findingFile: writer.url(of: finding.name)) else { return nil }
        schedule.index = first.schedule.index
        let rate = finding.flaky == true ? HuntShrinker.Rate(failed: max(1, finding.reproducedRuns ?? 1), tries: max(1, finding.reproduceTries ?? 1))
            : .always
        let shrunk = runner.shrinker(deadline: deadline).shrink(schedule, report: first.report, failure: failure, rate: rate)
        // Nothing smaller in the time it had: the file stays as it was written.
        guard shrunk.schedule.steps.count < schedule.steps.count || !shrunk.cutShort else { return nil }
        var names = Set<String>()
        var written = try writer.write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: finding.failingSchedules, rate: rate,
                                       until: deadline, fixedName: (finding.name, "seed \(runner.seed), schedule \(first.schedule.index)"))
        written.finding.struck = finding.struck
        written.runs += shrunk.runs
        return written
    }

    /// How often the first schedule that failed one way fails, and that schedule shrunk.
    ///
    /// A hang at a launch is also run once at the case's full timeout, beside its rate and
    /// its shrink (it waits, holding no job): one that answers there (a launch that waits
    /// out a library's 10 s connect timeout) was a slow step — its shrink is stopped, the
    /// bound raised past it (for this shrink and the rounds after) and it is shrunk again
    /// as what it is; one that hangs there too is one more run of its rate. A hang at an
    /// action is confirmed by its file's runs at the full timeout alone (``FindingWriter/write(_:from:shrunk:names:failing:rate:tries:until:fixedName:)``
    /// judges one that answers there as what it is).
    mutating func rateAndShrink(_ first: inout HuntFound.Failing, deadline: ContinuousClock.Instant, slowestRecoveryMs: Int)
        -> (rate: HuntShrinker.Rate, shrunk: HuntShrinker.Outcome, runs: Int) {
        guard first.failure.kind == .hang, first.failure.struckLaunch, ContinuousClock.now + Self.confirmingAHang < deadline,
              let scenario = try? runner.scenario(of: first.schedule)
        else { return rateAndShrinkAsItStands(first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs) }
        let hanging = first
        let shrinker = self
        let another = SharedFlag()
        let ran = runBeside({ () -> CaseReport? in
            let full = shrinker.confirmation.runFile(scenario, times: 1).first.flatMap { $0 }
            if let full, Self.isAnother(hanging.failure, shrinker.runner.judge(hanging.schedule, full)) { another.set() }
            return full
        }, {
            shrinker.rateAndShrinkAsItStands(hanging, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs, stop: { another.isSet })
        })
        guard let full = ran.aside else { return ran.main }
        let failure = runner.judge(first.schedule, full)
        if first.failure.sameCore(failure) {
            var rate = ran.main.rate
            rate.failed += 1
            rate.tries += 1
            return (rate, ran.main.shrunk, ran.main.runs + 1)
        }
        guard let failure, Self.isAnother(first.failure, failure) else { return (ran.main.rate, ran.main.shrunk, ran.main.runs + 1) }
        HuntRunner.debug("schedule \(first.schedule.index): \(first.failure.signature) under the bound is \(failure.signature) at the full timeout")
        first.failure = failure
        first.report = full
        // A slow step, not a hang: the bound is raised past it, for this shrink (its
        // candidates would otherwise all hang under the bound, each a rejected run) and
        // for the rounds after it.
        raiseBound(pastTheStepsOf: full, steps: first.schedule.steps)
        let again = rateAndShrinkAsItStands(first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs)
        return (again.rate, again.shrunk, ran.main.runs + 1 + again.runs)
    }

    /// The rate and the shrink of `first` as it stands, stopping early when `stop` says.
    /// A hang's candidates are held to a shorter bound than the hunt's
    /// (``hangShrinkBound(_:report:steps:struckLaunch:)``).
    func rateAndShrinkAsItStands(_ first: HuntFound.Failing, deadline: ContinuousClock.Instant, slowestRecoveryMs: Int,
                                 stop: @escaping () -> Bool = { false }) -> (rate: HuntShrinker.Rate, shrunk: HuntShrinker.Outcome, runs: Int) {
        let runner = first.failure.kind != .hang ? self.runner : self.runner.bounded(by: self.runner.plan.stepBound.map {
            Self.hangShrinkBound($0, report: first.report, steps: first.schedule.steps, struckLaunch: first.failure.struckLaunch)
        })
        // Candidates ask a failed read again for no longer than the hunt's slowest recovery
        // allows (a candidate that stays broken waits that, not the scenario's 5 s); the
        // file is run at the scenario's own bound before it is written.
        var capped = runner
        capped.plan.recoveryPollCap = Self.recoveryCap(slowestRecoveryMs: slowestRecoveryMs)
        var shrinker = capped.shrinker(deadline: deadline)
        shrinker.stop = stop
        func rate() -> (rate: HuntShrinker.Rate, runs: Int) {
            guard ContinuousClock.now < deadline else { return (.always, 0) }
            let measured = HuntConfirmation(runner: runner).rate(of: first.schedule, failing: first.failure, alreadyFailed: 1, until: deadline)
            return (measured.rate, measured.runs)
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

    /// Raises the bound on a step past the steps of `report` that answered.
    private mutating func raiseBound(pastTheStepsOf report: CaseReport, steps: [WrittenStep]) {
        runner = runner.bounded(by: runner.plan.stepBound.map { Self.stepBound($0, pastTheStepsOf: report, steps: steps) })
    }
}
