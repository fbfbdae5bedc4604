import ChaosTarget
import Foundation

/// Reduces a failing schedule until no single step can be removed or made simpler and
/// the schedule still fail the same way (1-minimal): runs of steps dropped (halves, then
/// quarters, down to single steps), then each step made simpler (an argument or a
/// trigger key dropped, a number lowered, a kill or a power cut made a stop, a cut at a
/// later write made a cut now, a clear of one kind made a clear of all). Every candidate
/// is run; the first, in that fixed order, that fails with the same core
/// (``HuntOracle/Failure/sameCore(_:)``) is kept and the search starts again from it.
/// Candidates are tried `jobs` at a time (a hang's more: ``width(jobs:shrinking:)``), but
/// the one kept is always the first in order, so the result does not depend on `jobs`:
/// QuickCheck's and Hypothesis's greedy shrinking, with delta debugging's chunks first.
///
/// A failure that shows only sometimes (``Rate``) is shrunk by candidates that fail at
/// least as often: each runs up to as many times as the original was tried.
struct HuntShrinker {
    /// Runs candidates (several at once), giving each one's report, or nil for one the
    /// scenario format refuses.
    var evaluate: ([HuntSchedule]) -> [CaseReport?]
    /// How a candidate's report failed.
    var judge: (HuntSchedule, CaseReport) -> HuntOracle.Failure?
    var jobs: Int
    /// Stop shrinking (keeping the smallest so far) past this many runs or this instant.
    var maxRuns = 200
    var deadline: ContinuousClock.Instant
    /// Stop at the next round, as at the deadline: what was being shrunk turned out to be
    /// something else (a hang that answers at the case's full timeout).
    var stop: () -> Bool = { false }

    init(evaluate: @escaping ([HuntSchedule]) -> [CaseReport?],
         judge: @escaping (HuntSchedule, CaseReport) -> HuntOracle.Failure? = { HuntOracle.failure(of: $1, steps: $0.steps) },
         jobs: Int, maxRuns: Int = 200, deadline: ContinuousClock.Instant) {
        self.evaluate = evaluate
        self.judge = judge
        self.jobs = jobs
        self.maxRuns = maxRuns
        self.deadline = deadline
    }

    /// How often a failure shows: `failed` of `tries` runs.
    struct Rate: Sendable, Equatable, Codable {
        var failed: Int
        var tries: Int

        static let always = Rate(failed: 1, tries: 1)
        var isFull: Bool { failed == tries }
        /// `3 of 5`.
        var text: String { "\(failed) of \(tries)" }
    }

    struct Outcome {
        var schedule: HuntSchedule
        var report: CaseReport
        var runs: Int
        /// True when a bound stopped it before no smaller candidate failed.
        var cutShort: Bool
        /// When cut short: the steps of the last schedule whose removal was not tried.
        var untriedSteps = 0
    }

    func shrink(_ start: HuntSchedule, report: CaseReport, failure: HuntOracle.Failure, rate: Rate = .always) -> Outcome {
        var best = Outcome(schedule: start, report: report, runs: 0, cutShort: false)
        while true {
            let hungAt = failure.kind == .hang ? Self.hungStep(of: best.report) : nil
            let candidates = Self.candidates(of: best.schedule, hungAt: hungAt).filter { $0.isWellFormed(for: failure) }
            var accepted = false
            var offset = 0
            while offset < candidates.count {
                guard best.runs < maxRuns, ContinuousClock.now < deadline, !RunInterruption.requested, !stop() else {
                    best.cutShort = true
                    best.untriedSteps = Self.untriedRemovals(candidates[offset...], of: best.schedule)
                    return best
                }
                if rate.isFull {
                    let batch = Array(candidates[offset..<min(candidates.count, offset + Self.width(jobs: jobs, shrinking: failure))])
                    offset += batch.count
                    let reports = evaluate(batch)
                    best.runs += reports.filter { $0 != nil }.count
                    for (candidate, report) in zip(batch, reports) {
                        HuntRunner.debug("shrink \(best.schedule.steps.count) steps: candidate of \(candidate.steps.count) "
                            + (report.map { "\(judge(candidate, $0)?.signature ?? "passes") in \($0.durationMs) ms" } ?? "not run"))
                    }
                    let kept = zip(batch, reports).first { candidate, report in report.map { failure.sameCore(judge(candidate, $0)) } ?? false }
                    if let (candidate, found) = kept, let report = found {
                        best.schedule = candidate
                        best.report = report
                        accepted = true
                        break
                    }
                } else {
                    let candidate = candidates[offset]
                    offset += 1
                    let (report, runs) = failsAsOften(candidate, failure: failure, rate: rate)
                    best.runs += runs
                    if let report {
                        best.schedule = candidate
                        best.report = report
                        accepted = true
                        break
                    }
                }
            }
            if !accepted { return best }
        }
    }

    /// How many candidates are run at once: `jobs`; for a hang, as many as the pool holds
    /// at work and waiting (``TrialPool/waitingPerJob``), since a candidate that still
    /// hangs waits its bound out with no CPU — a hang's shrink is one bound a round, not
    /// one a candidate. Which candidate is kept does not change: the first that fails.
    static func width(jobs: Int, shrinking failure: HuntOracle.Failure) -> Int {
        let jobs = max(1, jobs)
        return failure.kind == .hang ? jobs * (1 + TrialPool<HuntSchedule, CaseReport?>.waitingPerJob) : jobs
    }

    /// Runs a candidate of a failure that shows only sometimes as often as the original
    /// was tried (`jobs` at a time), and gives the report of a failing run when it fails
    /// at least as often; stops as soon as the answer is known.
    func failsAsOften(_ candidate: HuntSchedule, failure: HuntOracle.Failure, rate: Rate) -> (CaseReport?, runs: Int) {
        var failed: [CaseReport] = []
        var ran = 0
        while ran < rate.tries {
            let count = min(max(1, jobs), rate.tries - ran)
            let reports = evaluate(Array(repeating: candidate, count: count))
            guard reports.allSatisfy({ $0 != nil }) else { return (nil, ran) }
            ran += count
            failed += reports.compactMap { $0 }.filter { failure.sameCore(judge(candidate, $0)) }
            if failed.count >= rate.failed { return (failed.first, ran) }
            if ran - failed.count > rate.tries - rate.failed { return (nil, ran) }
        }
        return (nil, ran)
    }

    /// How many of `schedule`'s steps the `remaining` candidates would still have tried
    /// to remove one by one.
    static func untriedRemovals(_ remaining: ArraySlice<HuntSchedule>, of schedule: HuntSchedule) -> Int {
        remaining.filter { $0.steps.count == schedule.steps.count - 1 }.count
    }

    /// Where a hang struck: the index in the schedule's steps of the step that never
    /// answered (the last its report holds), nil when none did.
    static func hungStep(of report: CaseReport) -> Int? {
        report.steps.last { !report.answered($0) }.map { $0.index - 1 }
    }

    /// Every smaller or simpler schedule one edit away, smallest first; for a hang at the
    /// step `hungAt`, its skeletons before them (``skeletons(of:hungAt:)``).
    static func candidates(of schedule: HuntSchedule, hungAt: Int? = nil) -> [HuntSchedule] {
        var result: [HuntSchedule] = []
        func with(_ steps: [WrittenStep]) {
            guard !steps.isEmpty, steps != schedule.steps else { return }
            var candidate = schedule
            candidate.steps = steps
            if !result.contains(candidate) { result.append(candidate) }
        }
        let steps = schedule.steps
        if let hungAt { skeletons(of: steps, hungAt: hungAt).forEach(with) }
        var chunk = max(1, steps.count / 2)
        while true {
            var start = 0
            while start < steps.count {
                with(Array(steps[..<start] + steps[min(steps.count, start + chunk)...]))
                start += chunk
            }
            if chunk == 1 { break }
            chunk = max(1, chunk / 2)
        }
        for (index, step) in steps.enumerated() {
            for simpler in simpler(step) {
                var edited = steps
                edited[index] = simpler
                with(edited)
            }
        }
        return result
    }

    /// A hang's smallest likely causes, tried first: its first launch and the step that
    /// hung, alone and with each one step between them (`launch; blackhole; do
    /// orders.add`). A round of a hang's shrink costs a bound whatever it holds, so
    /// a skeleton that still hangs saves the rounds that halves and single steps would
    /// take to get there; the rest of the search is unchanged, and its result 1-minimal.
    static func skeletons(of steps: [WrittenStep], hungAt: Int) -> [[WrittenStep]] {
        guard steps.indices.contains(hungAt), let launch = steps.firstIndex(of: .launch), launch < hungAt,
              steps.count > 3 else { return [] }
        return [[steps[launch], steps[hungAt]]] + (launch + 1 ..< hungAt).map { [steps[launch], steps[$0], steps[hungAt]] }
    }

    /// The simpler forms of one step, simplest first.
    static func simpler(_ step: WrittenStep) -> [WrittenStep] {
        switch step {
        case .launch, .stop: return []
        case .kill: return [.stop]
        case let .powerLoss(mode, moment):
            var forms: [WrittenStep] = [.stop]
            if !moment.isEmpty { forms.append(.powerLoss(mode, [])) }
            if mode != "drop" { forms.append(.powerLoss("drop", moment)) }
            return forms
        case let .clear(scope): return scope == "all" ? [] : [.clear("all")]
        case let .action(name, arguments, rest): return simpler(arguments).map { .action(name, $0, rest) }
        case .checkpoint, .wait, .suspend, .resume: return []
        case let .fault(kind, keys):
            // A kind whose numbers are what it is (a damage's size) keeps them; one that
            // fires a few times keeps its count.
            let hunted = FaultCatalog.kind(named: kind) as? any HuntedFault.Type
            let forms = simpler(keys, lowering: hunted?.numbersShrink ?? true).map { WrittenStep.fault(kind, $0) }
            guard hunted?.firesAFewTimes == true else { return forms }
            return forms.filter { if case let .fault(_, kept) = $0 { kept.contains { $0.key == "times" } } else { true } }
        }
    }

    /// Keys with one dropped, or one number lowered to 1 (or 0 for a count of bytes).
    static func simpler(_ keys: [HuntKey], lowering: Bool = true) -> [[HuntKey]] {
        var forms: [[HuntKey]] = []
        for index in keys.indices {
            var dropped = keys
            dropped.remove(at: index)
            forms.append(dropped)
        }
        for (index, key) in keys.enumerated() where lowering {
            guard case let .int(number) = key.value else { continue }
            let lowest = key.key.contains("bytes") ? 0 : 1
            guard number > lowest else { continue }
            var lowered = keys
            lowered[index].value = .int(lowest)
            forms.append(lowered)
        }
        return forms
    }
}
