import ChaosTarget
import Foundation

extension Hunter {
    /// `chaos hunt --shrink FILE`: a finding a hunt cut short (or any hunt finding) shrunk
    /// on from where it stands, within the budget, and written again in place, 1-minimal
    /// or saying how far it got. Nil when the file does not fail any more: then there is
    /// nothing to shrink, and the file is left as it is.
    package func shrink(file url: URL, progress: (Progress) -> Void = { _ in }) throws(Problem) -> (HuntFinding, CaseReport)? {
        let clock = ContinuousClock()
        let start = clock.now
        let schedule: HuntSchedule
        do { schedule = try HuntSchedule(findingFile: url) } catch { throw .badFile(error.description) }
        var hunt = self
        hunt.remotes = options.target.declaration.remotes.map(\.name).sorted()
        hunt.options.stepBound = Self.stepBound(slowestPlainMs: 0)
        let stopServers = hunt.startServers()
        defer { stopServers() }
        // What it fails with now, and how often: the first of a few runs that fails.
        var runs = 0
        let reports = hunt.runSchedules(Array(repeating: schedule, count: 1 + HuntConfirmation.triesBefore))
        runs += reports.count
        guard let failing = reports.compactMap({ $0 }).first(where: { hunt.judge(schedule, $0) != nil }),
              let failure = hunt.judge(schedule, failing) else { return nil }
        let failed = reports.compactMap { $0 }.filter { failure.sameCore(hunt.judge(schedule, $0)) }.count
        var rate = HuntShrinker.Rate(failed: failed, tries: reports.count)
        if !rate.isFull {
            rate = hunt.rate(of: schedule, failing: failure, alreadyFailed: 0, runs: &runs, tries: HuntConfirmation.flakyTries).rate
        }
        progress(.shrinking(failure, steps: schedule.steps.count))
        let deadline = start + (budget ?? .seconds(600))
        let shrinker = HuntShrinker(evaluate: { hunt.runSchedules($0) }, judge: hunt.judge, jobs: jobs, deadline: deadline)
        let shrunk = shrinker.shrink(schedule, report: failing, failure: failure, rate: rate)
        let refined = hunt.judge(shrunk.schedule, shrunk.report) ?? failure
        var names = Set<String>()
        let name = url.deletingPathExtension().lastPathComponent
        var written = try hunt.write(refined, from: schedule, shrunk: shrunk, names: &names, failing: 1, rate: rate,
                                     fixedName: (name, "shrunk again with chaos hunt --shrink"))
        written.finding.shrinkRuns = shrunk.runs
        written.finding.shrinkMs = max(0, (clock.now - start).wholeMilliseconds - (written.finding.confirmMs ?? 0))
        progress(.found(written.finding))
        return (written.finding, written.report)
    }
}
