import ChaosTarget
import Foundation

/// What a hunt has found so far, over its rounds: the first schedule of each distinct
/// failure, which findings they became, and where the next round's schedules start.
struct HuntFound {
    var firsts: [String: Hunter.Failing] = [:]
    /// A first failure's signature → its finding (-1: a hang its file never showed).
    var shrunk: [String: Int] = [:]
    /// Each finding's failure as shrinking left it, and its first schedule.
    var refined: [HuntOracle.Failure] = []
    var origins: [Hunter.Failing] = []
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
    var waiting: [Hunter.Failing] {
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

extension Hunter {
    /// Runs schedules from where the last round stopped while the budget allows (all of
    /// them, for `--schedules N`), `jobs` at a time, read in index order; notes the first
    /// schedule of each distinct failure. True when it ran any.
    func runRound(_ generator: HuntGenerator, plan: inout HuntBudget, found: inout HuntFound, outcome: inout HuntOutcome,
                  progress: (Progress) -> Void) -> Bool {
        let clock = ContinuousClock()
        let ranAt = clock.now
        let from = found.nextOffset
        TrialPool<HuntSchedule, Ran>(jobs: jobs).run(
            trial: { offset in
                let scheduleIndex = index(ofOffset: from + offset)
                if let total = schedules, scheduleIndex >= total { return nil }
                guard plan.mayRunSchedules(at: clock.now, toShrink: found.waiting.map(\.cost)) else { return nil }
                found.nextOffset = from + offset + 1
                return generator.schedule(scheduleIndex)
            },
            run: { runSchedule($0) },
            consume: { _, schedule, ran in
                outcome.count(schedule, ran)
                if let report = ran.report { plan.noteCase(ms: report.durationMs) }
                if let recovered = ran.report?.recoveryMs { found.slowestRecoveryMs = max(found.slowestRecoveryMs, recovered) }
                // A hang at an action stands for its cause before one at a launch, which
                // may be a library's connect timeout that answers at the case's full timeout.
                if let failure = ran.failure, let report = ran.report,
                   found.firsts[failure.signature] == nil || found.hangAtALaunchOnly(failure, before: failure.signature),
                   aim.map({ aim in report.trap.map(aim.wanted) ?? false }) ?? true {
                    found.firsts[failure.signature] = Failing(failure: failure, schedule: schedule, report: report)
                }
                progress(.ran(done: outcome.schedules, failed: outcome.failedSchedules, findings: found.firsts.count))
                return aim == nil || found.firsts.isEmpty
            })
        outcome.runMs += (clock.now - ranAt).wholeMilliseconds
        return found.nextOffset > from
    }

    /// Shrinks the failures not shrunk yet, lowest schedule first, each in its share of
    /// the budget, and makes each a finding — unless its cause is one already found.
    mutating func shrinkNew(_ found: inout HuntFound, plan: HuntBudget, outcome: inout HuntOutcome,
                            progress: (Progress) -> Void) throws(Problem) {
        let clock = ContinuousClock()
        let ordered = found.waiting
        for (offset, first) in ordered.enumerated() {
            guard !RunInterruption.requested else { break }
            // A loss whose faults include all those a finding of the same failure was
            // shrunk to has that finding's cause at work: counted there, not shrunk again.
            if first.failure.kind != .trap, first.failure.kind != .hang,
               let same = found.refined.firstIndex(where: { $0.sameCore(first.failure) && Set($0.causes).isSubset(of: first.failure.causes) }) {
                found.shrunk[first.failure.signature] = same
                continue
            }
            progress(.shrinking(first.failure, steps: first.schedule.steps.count))
            let shrinkStart = clock.now
            // Each finding gets its share of what is left, by what its shrink is likely to cost.
            let deadline = plan.shrinkDeadline(at: clock.now, cost: first.cost, costsLeft: ordered[offset...].map(\.cost))
            let made = try finding(for: first, deadline: deadline, end: plan.end, names: &found.names,
                                   slowestRecoveryMs: found.slowestRecoveryMs,
                                   failing: outcome.failuresBySignature[first.failure.signature] ?? 1)
            outcome.shrinkRuns += made.runs
            options.stepBound = made.stepBound
            var finding = made.finding
            finding.shrinkMs = max(0, (clock.now - shrinkStart).wholeMilliseconds - (finding.confirmMs ?? 0))
            // A hang its file never showed at the case's full timeout was a slow step, not a hang.
            if made.failure.kind == .hang, !finding.reproduced {
                outcome.unconfirmedHangs += 1
                progress(.notAHang(first.failure))
                found.shrunk[first.failure.signature] = -1
                try? FileManager.default.removeItem(at: foundDirectory.appendingPathComponent(finding.name + ".yaml"))
                continue
            }
            // Shrunk, two failures may prove one cause (a clock jump that played no part
            // was all that told them apart): one finding, their schedules counted together.
            if let same = outcome.findings.firstIndex(where: { $0.failure == finding.failure }) {
                outcome.sameCause += 1
                progress(.sameAs(first.failure, finding: outcome.findings[same]))
                found.shrunk[first.failure.signature] = same
                try? FileManager.default.removeItem(at: foundDirectory.appendingPathComponent(finding.name + ".yaml"))
                continue
            }
            finding.struck = outcome.struckBySignature[first.failure.signature]
            found.shrunk[first.failure.signature] = outcome.findings.count
            found.refined.append(made.failure)
            found.origins.append(first)
            outcome.findings.append(finding)
            outcome.cases.append(made.report)
            progress(.found(finding))
        }
    }

    /// Time left over: the findings cut short are shrunk on from where they stopped.
    func resumeCutShort(_ found: HuntFound, plan: HuntBudget, outcome: inout HuntOutcome, progress: (Progress) -> Void) throws(Problem) {
        let clock = ContinuousClock()
        for index in outcome.findings.indices where outcome.findings[index].cutShort {
            guard let end = plan.end, clock.now + .seconds(2) < end, !RunInterruption.requested else { break }
            let waiting = outcome.findings[index...].filter(\.cutShort).count
            let resumeStart = clock.now
            guard let resumed = try resume(outcome.findings[index], failure: found.refined[index], first: found.origins[index],
                                           deadline: clock.now + (end - clock.now) / max(1, waiting), end: end) else { continue }
            outcome.shrinkRuns += resumed.runs
            var finding = resumed.finding
            finding.shrinkRuns += outcome.findings[index].shrinkRuns
            finding.shrinkMs = outcome.findings[index].shrinkMs + max(0, (clock.now - resumeStart).wholeMilliseconds - (finding.confirmMs ?? 0))
            outcome.findings[index] = finding
            outcome.cases[index] = resumed.report
            progress(.found(finding))
        }
    }
}
