import ChaosTarget
import Foundation

/// What a round's new failures become: findings, each shrunk in its share of the
/// budget, unless its cause is one already found; and, with time left, the findings cut
/// short shrunk on. `chaos hunt --shrink` shrinks a finding's file on the same way.
extension FindingShrinker {
    /// Shrinks the failures not shrunk yet, lowest schedule first, each in its share of
    /// the budget, and makes each a finding — unless its cause is one already found.
    mutating func shrinkNew(_ found: inout HuntFound, plan: HuntBudget, outcome: inout HuntOutcome,
                            progress: (Hunter.Progress) -> Void) throws(Hunter.Problem) {
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
            var finding = made.finding
            finding.shrinkMs = max(0, (clock.now - shrinkStart).wholeMilliseconds - (finding.confirmMs ?? 0))
            // A hang its file never showed at the case's full timeout was a slow step, not a hang.
            if made.failure.kind == .hang, !finding.reproduced {
                outcome.unconfirmedHangs += 1
                progress(.notAHang(first.failure))
                found.shrunk[first.failure.signature] = -1
                try? FileManager.default.removeItem(at: writer.url(of: finding.name))
                continue
            }
            // Shrunk, two failures may prove one cause (a clock jump that played no part
            // was all that told them apart): one finding, their schedules counted together.
            if let same = outcome.findings.firstIndex(where: { $0.failure == finding.failure }) {
                outcome.sameCause += 1
                progress(.sameAs(first.failure, finding: outcome.findings[same]))
                found.shrunk[first.failure.signature] = same
                try? FileManager.default.removeItem(at: writer.url(of: finding.name))
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
    func resumeCutShort(_ found: HuntFound, plan: HuntBudget, outcome: inout HuntOutcome,
                        progress: (Hunter.Progress) -> Void) throws(Hunter.Problem) {
        let clock = ContinuousClock()
        for index in outcome.findings.indices where outcome.findings[index].cutShort {
            guard let end = plan.end, clock.now + .seconds(2) < end, !RunInterruption.requested else { break }
            let waiting = outcome.findings[index...].filter(\.cutShort).count
            let resumeStart = clock.now
            guard let resumed = try resume(outcome.findings[index], failure: found.refined[index], first: found.origins[index],
                                           deadline: clock.now + (end - clock.now) / max(1, waiting)) else { continue }
            outcome.shrinkRuns += resumed.runs
            var finding = resumed.finding
            finding.shrinkRuns += outcome.findings[index].shrinkRuns
            finding.shrinkMs = outcome.findings[index].shrinkMs + max(0, (clock.now - resumeStart).wholeMilliseconds - (finding.confirmMs ?? 0))
            outcome.findings[index] = finding
            outcome.cases[index] = resumed.report
            progress(.found(finding))
        }
    }

    /// `chaos hunt --shrink FILE`: a finding's schedule shrunk on from where it stands
    /// until `deadline`, and written again in place as `name`, 1-minimal or saying how far
    /// it got. Nil when it does not fail any more: then there is nothing to shrink.
    func shrinkAgain(_ schedule: HuntSchedule, name: String, since start: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
                     progress: (Hunter.Progress) -> Void) throws(Hunter.Problem) -> FindingWriter.Written? {
        // What it fails with now, and how often: the first of a few runs that fails.
        let reports = runner.runSchedules(Array(repeating: schedule, count: 1 + HuntConfirmation.triesBefore))
        guard let failing = reports.compactMap({ $0 }).first(where: { runner.judge(schedule, $0) != nil }),
              let failure = runner.judge(schedule, failing) else { return nil }
        let failed = reports.compactMap { $0 }.filter { failure.sameCore(runner.judge(schedule, $0)) }.count
        var rate = HuntShrinker.Rate(failed: failed, tries: reports.count)
        if !rate.isFull {
            rate = confirmation.rate(of: schedule, failing: failure, alreadyFailed: 0, tries: HuntConfirmation.flakyTries).rate
        }
        progress(.shrinking(failure, steps: schedule.steps.count))
        let shrunk = runner.shrinker(deadline: deadline).shrink(schedule, report: failing, failure: failure, rate: rate)
        let refined = runner.judge(shrunk.schedule, shrunk.report) ?? failure
        var names = Set<String>()
        var written = try writer.write(refined, from: schedule, shrunk: shrunk, names: &names, failing: 1, rate: rate,
                                       fixedName: (name, "shrunk again with chaos hunt --shrink"))
        written.finding.shrinkMs = max(0, (ContinuousClock.now - start).wholeMilliseconds - (written.finding.confirmMs ?? 0))
        progress(.found(written.finding))
        return written
    }
}
