import ChaosTarget
import Foundation

/// How often a finding is run to know whether it fails every time: its first schedule a
/// few more times before shrinking (a failure that shows only sometimes is shrunk by
/// candidates that fail at least as often), and its written file after.
package enum HuntConfirmation {
    /// Runs of the first failing schedule beyond the one that found it.
    package static let triesBefore = 1
    /// Runs of the written file (the shrinker's last run of the same schedule failed too).
    package static let triesAfter = 2
    /// Runs in all when a failure did not show every time: its rate is out of these.
    package static let flakyTries = 5
}

extension Hunter {
    /// A finding made of the first schedule that failed one distinct way: how often it
    /// fails, shrunk, written as `FOUND/NAME.yaml`, loaded back as any scenario file is
    /// (so a file the format refuses is never handed out), and run from that file: its
    /// report is the finding's case, with the reproduce line a user types.
    /// Past `deadline` (its share of the budget) it is not shrunk further; past `end`
    /// (the hunt's) its file runs once rather than a few times.
    func finding(for first: Failing, deadline: ContinuousClock.Instant, end: ContinuousClock.Instant?, names: inout Set<String>,
                 failing: Int) throws(Problem) -> (finding: HuntFinding, report: CaseReport, failure: HuntOracle.Failure, runs: Int) {
        var runs = 0
        let before = ContinuousClock.now < deadline
            ? rate(of: first.schedule, failing: first.failure, alreadyFailed: true, runs: &runs, until: end).rate : .always
        let shrinker = HuntShrinker(evaluate: { runSchedules($0) }, judge: judge, jobs: jobs, deadline: deadline)
        let shrunk = shrinker.shrink(first.schedule, report: first.report, failure: first.failure, rate: before)
        runs += shrunk.runs
        // Shrunk, the faults at work are the ones the failure needs.
        let failure = judge(shrunk.schedule, shrunk.report) ?? first.failure
        let tries = end.map { ContinuousClock.now < $0 } ?? true ? HuntConfirmation.triesAfter : 1
        var written = try write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: failing, rate: before, tries: tries,
                                until: end)
        runs += written.runs
        written.finding.shrinkRuns = shrunk.runs
        return (written.finding, written.report, failure, runs)
    }

    /// A finding cut short, shrunk on from its file (where shrinking stopped) until the
    /// `deadline`, and written again under its name. Nil when its file cannot be read back,
    /// or nothing smaller was found in the time.
    func resume(_ finding: HuntFinding, failure: HuntOracle.Failure, first: Failing, deadline: ContinuousClock.Instant,
                end: ContinuousClock.Instant) throws(Problem) -> (finding: HuntFinding, report: CaseReport, runs: Int)? {
        let url = foundDirectory.appendingPathComponent(finding.name + ".yaml")
        guard var schedule = try? HuntSchedule(findingFile: url) else { return nil }
        schedule.index = first.schedule.index
        let rate = finding.flaky == true ? HuntShrinker.Rate(failed: max(1, finding.reproducedRuns ?? 1), tries: max(1, finding.reproduceTries ?? 1))
            : .always
        let shrinker = HuntShrinker(evaluate: { runSchedules($0) }, judge: judge, jobs: jobs, deadline: deadline)
        let shrunk = shrinker.shrink(schedule, report: first.report, failure: failure, rate: rate)
        // Nothing smaller in the time it had: the file stays as it was written.
        guard shrunk.schedule.steps.count < schedule.steps.count || !shrunk.cutShort else { return nil }
        var names = Set<String>()
        var written = try write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: finding.failingSchedules, rate: rate,
                                until: end, fixedName: (finding.name, "seed \(seed), schedule \(first.schedule.index)"))
        written.finding.shrinkRuns = shrunk.runs
        written.finding.struck = finding.struck
        return (written.finding, written.report, shrunk.runs + written.runs)
    }

    /// How often `schedule` fails as `failure` did: a few runs (`jobs` at a time), more
    /// when one of them did not fail; the report of a failing run. `alreadyFailed`: one
    /// run that failed is counted already.
    func rate(of schedule: HuntSchedule, failing failure: HuntOracle.Failure, alreadyFailed: Bool, runs: inout Int,
              tries: Int = 1 + HuntConfirmation.triesBefore, scenario: Scenario? = nil,
              until: ContinuousClock.Instant? = nil) -> (rate: HuntShrinker.Rate, report: CaseReport?) {
        var failed = alreadyFailed ? 1 : 0
        var done = alreadyFailed ? 1 : 0
        var failingReport: CaseReport?
        var firstReport: CaseReport?
        func run(_ count: Int) {
            guard count > 0 else { return }
            let reports: [CaseReport?] = if let scenario { runScenario(scenario, times: count) } else {
                runSchedules(Array(repeating: schedule, count: count), jobs: Self.confirmationJobs(jobs))
            }
            for report in reports {
                done += 1
                runs += 1
                guard let report else { continue }
                firstReport = firstReport ?? report
                if failure.sameCore(judge(schedule, report)) {
                    failed += 1
                    failingReport = failingReport ?? report
                }
            }
        }
        run(tries - done)
        // Past the hunt's end, what was seen is said; no more runs to measure it better.
        if failed < done, until.map({ ContinuousClock.now < $0 }) ?? true { run(HuntConfirmation.flakyTries - done) }
        return (HuntShrinker.Rate(failed: failed, tries: done), failingReport ?? firstReport)
    }

    /// Confirming runs go side by side, two at least, whatever `-j`: a failure that shows
    /// only on an idle machine (or only under load) is caught as flaky by the same runs
    /// at `-j 1` and at `-j 2`, so the two hunts do not disagree without a word.
    static func confirmationJobs(_ jobs: Int) -> Int { max(2, jobs) }

    /// Runs one scenario `times` times, side by side (``confirmationJobs(_:)``).
    func runScenario(_ scenario: Scenario, times: Int) -> [CaseReport?] {
        var reports = [CaseReport?](repeating: nil, count: times)
        // From the file, as a user runs it: a step is bounded by the case's timeout alone.
        var asWritten = caseOptions
        asWritten.stepBound = nil
        TrialPool<Int, CaseReport>(jobs: Self.confirmationJobs(jobs)).run(
            trial: { $0 < times ? $0 : nil },
            run: { _ in CaseRunner(scenario: scenario, options: asWritten).run() },
            consume: { index, _, report in
                reports[index] = report
                return true
            })
        return reports
    }

    /// Writes a shrunk failure as `FOUND/NAME.yaml` and runs it from the file.
    /// `fixedName`: the file's name when it is written again (`--shrink`), and what its
    /// summary says of where it came from.
    func write(_ failure: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
               failing: Int, rate before: HuntShrinker.Rate, tries: Int = HuntConfirmation.triesAfter,
               until: ContinuousClock.Instant? = nil, fixedName: (name: String, origin: String)? = nil)
        throws(Problem) -> (finding: HuntFinding, report: CaseReport, runs: Int) {
        var name = fixedName?.name ?? failure.name
        var suffix = 2
        while fixedName == nil, names.contains(name) {
            name = "\(failure.name)-\(suffix)"
            suffix += 1
        }
        names.insert(name)
        let path = (foundPath.hasSuffix("/") ? foundPath : foundPath + "/") + name + ".yaml"
        let url = foundDirectory.appendingPathComponent(name + ".yaml")
        let origin = fixedName?.origin ?? "seed \(seed), schedule \(first.index)"
        let summary = "\(Self.findingSummaryPrefix) (\(origin), shrunk from \(first.steps.count) to "
            + "\(shrunk.schedule.steps.count) steps): \(Self.describe(failure))."
        let plain = shrunk.schedule.yaml(name: name, summary: summary)
        var runs = 0
        var report = shrunk.report
        var after = HuntShrinker.Rate(failed: 0, tries: 0)
        var reproduced = false
        if let loaded = try? ScenarioLoader.load(yaml: plain, file: path, baseDirectory: nil) {
            let measured = rate(of: shrunk.schedule, failing: failure, alreadyFailed: false, runs: &runs, tries: tries, scenario: loaded,
                                until: until)
            after = measured.rate
            reproduced = after.failed > 0
            if let measuredReport = measured.report { report = measuredReport }
        }
        report.scenario = name
        report.summary = summary
        let explanation = FindingExplanation(report: report, failure: failure).text
        report.explanation = explanation
        let flaky = !after.isFull || !before.isFull
        if !reproduced {
            report.error = (report.error.map { $0 + "; " } ?? "") + "the written file, run again \(after.tries) times, never failed as the hunt "
                + "saw (\(failure.signature)): the failure depends on timing"
        }
        var finding = HuntFinding(
            name: name, file: path, failure: failure.signature, schedule: first.index, failingSchedules: failing,
            stepsBefore: first.steps.count, stepsAfter: shrunk.schedule.steps.count, shrinkRuns: shrunk.runs, shrinkMs: 0,
            cutShort: shrunk.cutShort, reproduced: reproduced, reproduce: report.reproduce, yaml: "")
        finding.untriedSteps = shrunk.cutShort ? shrunk.untriedSteps : nil
        finding.reproducedRuns = after.failed
        finding.reproduceTries = after.tries
        finding.flaky = flaky
        finding.explanation = explanation
        let yaml = FindingFile.header(finding, before: before) + plain
        finding.yaml = yaml
        do {
            try Data(yaml.utf8).write(to: url)
        } catch {
            throw .cannotWrite("cannot write \(path): \(error.localizedDescription)")
        }
        return (finding, report, runs)
    }

    /// `the app traps at LegacyStore.swift:18: …`, `it fails no-silent-loss after a power cut`.
    static func describe(_ failure: HuntOracle.Failure) -> String {
        switch failure.kind {
        case .trap: "the app \(failure.core.replacingOccurrences(of: "trap", with: "traps", options: .anchored))"
        case .hang: "the app \(failure.core.replacingOccurrences(of: "hang", with: "hangs", options: .anchored))"
        case .exit: "the app ends unexpectedly (\(failure.core.dropFirst(6)))" + (failure.cause.map { " after \($0)" } ?? "")
        case .expectations: "it fails \(failure.signature)"
        }
    }
}
