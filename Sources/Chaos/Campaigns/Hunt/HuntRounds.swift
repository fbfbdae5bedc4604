import ChaosTarget
import Foundation

/// What a hunt has found so far, over its rounds: the first schedule of each distinct
/// failure, which findings they became, and where the next round's schedules start.
struct HuntFound {
    /// The first schedule to fail one distinct way, and what shrinking it may cost.
    struct Failing {
        var failure: HuntOracle.Failure
        var schedule: HuntSchedule
        var report: CaseReport

        var cost: HuntBudget.ShrinkCost { HuntBudget.ShrinkCost(steps: schedule.steps.count, caseMs: report.durationMs) }
    }

    var firsts: [String: Failing] = [:]
    /// A first failure's signature → its finding (-1: a hang its file never showed).
    var shrunk: [String: Int] = [:]
    /// Each finding's failure as shrinking left it, and its first schedule.
    var refined: [HuntOracle.Failure] = []
    var origins: [Failing] = []
    var names = Set<String>()
    var nextOffset = 0
    /// The slowest recovery a schedule showed (a failed read answered at last), in ms.
    var slowestRecoveryMs = 0

    /// Whether the first schedule kept for `signature`, not yet shrunk, is a hang that
    /// struck a launch, and `failure` one that struck an action.
    func hangAtALaunchOnly(_ failure: HuntOracle.Failure, before signature: String) -> Bool {
        guard failure.kind == .hang, !failure.struckLaunch, shrunk[signature] == nil, let kept = firsts[signature] else { return false }
        return kept.failure.kind == .hang && kept.failure.struckLaunch
    }

    /// The failures found and not shrunk yet, lowest schedule first.
    var waiting: [Failing] {
        firsts.filter { shrunk[$0.key] == nil }.values.sorted { $0.schedule.index < $1.schedule.index }
    }

    /// Every schedule a finding's causes showed in, over all rounds, and what they struck
    /// (the workload's actions by their own names: what the user's code calls them).
    func countFailing(in outcome: inout HuntOutcome, workload: Workload) {
        let named: [String: String] = [Workload.actionPrefix + "write": workload.write, Workload.actionPrefix + "read": workload.read]
        for index in outcome.findings.indices {
            let signatures = shrunk.filter { $0.value == index }.map(\.key)
            outcome.findings[index].failingSchedules = max(1, signatures.reduce(0) { $0 + (outcome.failuresBySignature[$1] ?? 0) })
            let struck = Set(signatures.flatMap { outcome.struckBySignature[$0] ?? [] }.map { named[$0] ?? $0 })
            outcome.findings[index].struck = struck.isEmpty ? nil : struck.sorted()
        }
    }
}

/// A hunt's rounds of schedules: each runs schedules from where the last stopped while
/// the budget allows (all of them, for `--schedules N`), `jobs` at a time, read in index
/// order, and notes the first schedule of each distinct failure. Random schedules are
/// drawn from the hunt's seed by their index; guided ones (``HuntGuide``) batch by
/// batch, each batch a pass of the pool of its own, so that what the batches before
/// reached is known, in index order, before the next is written.
struct HuntRounds {
    var runner: HuntRunner
    var generator: HuntGenerator
    /// `--schedules N`: run schedules 0..<N (this shard's share of them).
    var schedules: Int?
    /// `--shard I/N` (1-based): the schedules whose index is I-1 modulo N.
    var shard: (index: Int, count: Int)?
    /// A hunt aimed at one crash: the trap it looks for. Its rounds stop at the first
    /// schedule that traps that way, and keep no other failure.
    var wanted: (@Sendable (TrapRecord) -> Bool)?
    /// The guided strategy's corpus and batches; nil when schedules are drawn at random.
    var guide: HuntGuide?
    /// `--stop-at-first-failure`: no schedule after the first that fails.
    var stopAtFirstFailure = false

    /// The schedule index of this hunt's `offset`-th schedule (its shard's share).
    func index(ofOffset offset: Int) -> Int {
        guard let (index, count) = shard else { return offset }
        return offset * count + (index - 1)
    }

    /// Whether every schedule of `--schedules N` has run.
    func exhausted(_ found: HuntFound) -> Bool {
        schedules.map { index(ofOffset: found.nextOffset) >= $0 } ?? false
    }

    /// Runs one round; true when it ran any schedule.
    mutating func run(plan: inout HuntBudget, found: inout HuntFound, outcome: inout HuntOutcome, progress: (Hunter.Progress) -> Void) -> Bool {
        let clock = ContinuousClock()
        let ranAt = clock.now
        let from = found.nextOffset
        var guide = self.guide
        if guide == nil {
            _ = pass(upTo: nil, guide: &guide, plan: &plan, found: &found, outcome: &outcome, progress: progress)
        } else {
            // A batch runs whole before the next is written from what it reached.
            while pass(upTo: found.nextOffset - found.nextOffset % HuntGuide.batchSize + HuntGuide.batchSize, guide: &guide,
                       plan: &plan, found: &found, outcome: &outcome, progress: progress) {}
        }
        self.guide = guide
        outcome.runMs += (clock.now - ranAt).wholeMilliseconds
        return found.nextOffset > from
    }

    /// One pass of the pool, from the next schedule up to the offset `limit` (nil: as far
    /// as the hunt goes); true when it got there with nothing that stops the round.
    private func pass(upTo limit: Int?, guide: inout HuntGuide?, plan: inout HuntBudget, found: inout HuntFound, outcome: inout HuntOutcome,
                      progress: (Hunter.Progress) -> Void) -> Bool {
        let clock = ContinuousClock()
        let start = found.nextOffset
        var halted = false
        // A guided hunt's signatures begin with the fault points each schedule reached.
        let working = guide == nil ? runner : runner.countingPoints()
        TrialPool<HuntSchedule, HuntRunner.Ran>(jobs: working.jobs).run(
            trial: { offset in
                if let limit, start + offset >= limit { return nil }
                let scheduleIndex = index(ofOffset: start + offset)
                if let total = schedules, scheduleIndex >= total { return nil }
                guard plan.mayRunSchedules(at: clock.now, toShrink: found.waiting.map(\.cost)) else { return nil }
                found.nextOffset = start + offset + 1
                return guide?.schedule(scheduleIndex) ?? generator.schedule(scheduleIndex)
            },
            run: { working.runSchedule($0, slot: $1) },
            consume: { _, schedule, ran in
                outcome.count(schedule, ran)
                if let report = ran.report {
                    plan.noteCase(ms: report.durationMs)
                    guide?.note(schedule, report)
                }
                if let recovered = ran.report?.recoveryMs { found.slowestRecoveryMs = max(found.slowestRecoveryMs, recovered) }
                if ran.failure != nil, outcome.firstFailureMs == nil { outcome.firstFailureMs = (clock.now - plan.start).wholeMilliseconds }
                // A hang at an action stands for its cause before one at a launch, which
                // may be a library's connect timeout that answers at the case's full timeout.
                if let failure = ran.failure, let report = ran.report,
                   found.firsts[failure.signature] == nil || found.hangAtALaunchOnly(failure, before: failure.signature),
                   wanted.map({ wanted in report.trap.map(wanted) ?? false }) ?? true {
                    found.firsts[failure.signature] = HuntFound.Failing(failure: failure, schedule: schedule, report: report)
                }
                progress(.ran(done: outcome.schedules, failed: outcome.failedSchedules, findings: found.firsts.count))
                halted = !found.firsts.isEmpty && (wanted != nil || stopAtFirstFailure)
                return !halted
            })
        return !halted && !RunInterruption.requested && found.nextOffset == limit
    }
}
