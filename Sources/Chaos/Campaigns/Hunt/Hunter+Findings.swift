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
                 slowestRecoveryMs: Int? = nil, failing: Int) throws(Problem) -> (finding: HuntFinding, report: CaseReport, failure: HuntOracle.Failure, runs: Int,
                                                   stepBound: StepBound?) {
        var first = first
        var hunter = self
        // A hang's file is confirmed at the case's full timeout: its shrink leaves room for
        // that run before the hunt's end, so a hunt ends within its budget.
        let deadline = first.failure.kind == .hang ? min(deadline, end.map { $0 - Self.confirmingAHang } ?? deadline) : deadline
        let shrinking = hunter.rateAndShrink(&first, deadline: deadline, slowestRecoveryMs: slowestRecoveryMs)
        var runs = shrinking.runs
        let rate = shrinking.rate
        let shrunk = shrinking.shrunk
        // Shrunk, the faults at work are the ones the failure needs.
        let failure = judge(shrunk.schedule, shrunk.report) ?? first.failure
        let tries = end.map { ContinuousClock.now < $0 } ?? true ? HuntConfirmation.triesAfter : 1
        var written = try hunter.write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: failing, rate: rate,
                                       tries: tries, until: deadline)
        runs += written.runs
        written.finding.shrinkRuns = shrunk.runs
        // A hang whose file answered at the full timeout was a slow step: the rounds after
        // hold that step to a bound past it.
        if first.failure.kind == .hang, !first.failure.sameCore(written.failure) {
            hunter.options.stepBound = hunter.options.stepBound.map { Self.stepBound($0, pastTheStepsOf: written.report, steps: shrunk.schedule.steps) }
        }
        return (written.finding, written.report, written.failure, runs, hunter.options.stepBound)
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
                                until: deadline, fixedName: (finding.name, "seed \(seed), schedule \(first.schedule.index)"))
        written.finding.shrinkRuns = shrunk.runs
        written.finding.struck = finding.struck
        return (written.finding, written.report, shrunk.runs + written.runs)
    }

    /// How often `schedule` fails as `failure` did: a few runs (`jobs` at a time), more
    /// when one of them did not fail; the report of a failing run. `alreadyFailed`: runs
    /// that failed so, counted already.
    func rate(of schedule: HuntSchedule, failing failure: HuntOracle.Failure, alreadyFailed: Int, runs: inout Int,
              tries: Int = 1 + HuntConfirmation.triesBefore, scenario: Scenario? = nil,
              until: ContinuousClock.Instant? = nil) -> (rate: HuntShrinker.Rate, report: CaseReport?, reports: [CaseReport]) {
        var failed = alreadyFailed
        var done = alreadyFailed
        var failingReport: CaseReport?
        var firstReport: CaseReport?
        var all: [CaseReport] = []
        func run(_ count: Int) {
            guard count > 0 else { return }
            let reports: [CaseReport?] = if let scenario { runScenario(scenario, times: count) } else {
                runSchedules(Array(repeating: schedule, count: count), jobs: Self.confirmationJobs(jobs))
            }
            for report in reports {
                done += 1
                runs += 1
                guard let report else { continue }
                all.append(report)
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
        return (HuntShrinker.Rate(failed: failed, tries: done), failingReport ?? firstReport, all)
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
    ///
    /// A hang seen under the hunt's bound on one step that the file, run at the case's
    /// full timeout, shows as a slow answer instead (a connect that gives up after 10 s)
    /// is that failure: the finding is named and said as the file fails.
    func write(_ found: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
               failing: Int, rate before: HuntShrinker.Rate, tries: Int = HuntConfirmation.triesAfter,
               until: ContinuousClock.Instant? = nil, fixedName: (name: String, origin: String)? = nil)
        throws(Problem) -> (finding: HuntFinding, report: CaseReport, failure: HuntOracle.Failure, runs: Int) {
        let started = ContinuousClock.now
        var failure = found
        var shrunk = shrunk
        var file = findingFile(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
        var runs = 0
        var report = shrunk.report
        var after = HuntShrinker.Rate(failed: 0, tries: 0)
        var measuredReports: [CaseReport] = []
        func measure() {
            guard let loaded = try? ScenarioLoader.load(yaml: file.plain, file: file.path, baseDirectory: nil) else { return }
            let measured = rate(of: shrunk.schedule, failing: failure, alreadyFailed: 0, runs: &runs, tries: tries, scenario: loaded,
                                until: until)
            after = measured.rate
            measuredReports = measured.reports
            if let measuredReport = measured.report { report = measuredReport }
        }
        measure()
        Self.debug("finding \(failure.signature): \(after.text) from its file; the file's run: \(report.verdict) "
            + "\(report.expectations.filter { !$0.passed }.map(\.observed)) \(judge(shrunk.schedule, report)?.signature ?? "no failure")")
        if failure.kind == .hang, after.failed == 0, let slow = judge(shrunk.schedule, report), !failure.sameCore(slow) {
            // Slow, not hung: judged as such, its faults cleared at the end so that the app
            // relaunched to read what it kept is not judged through them.
            names.remove(file.name)
            let asItWas = shrunk.schedule.isWellFormed(for: slow)
            if !asItWas {
                shrunk.schedule.steps.append(.clear("all"))
                if let scenario = try? shrunk.schedule.scenario(name: file.name, summary: file.summary, file: file.path),
                   let again = runScenario(scenario, times: 1).first.flatMap({ $0 }) {
                    report = again
                    runs += 1
                }
            }
            failure = judge(shrunk.schedule, report) ?? slow
            file = findingFile(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
            if asItWas {
                // The same steps: the runs just made say how often it fails so (another
                // round of runs at the full timeout would cost a hang's 20 s again).
                after = HuntShrinker.Rate(failed: measuredReports.filter { failure.sameCore(judge(shrunk.schedule, $0)) }.count,
                                          tries: measuredReports.count)
            } else {
                measure()
            }
        }
        report.scenario = file.name
        report.summary = file.summary
        report.explanation = FindingExplanation(report: report, failure: failure).text
        if after.failed == 0 {
            report.error = (report.error.map { $0 + "; " } ?? "") + "the written file, run again \(after.tries) times, never failed as the hunt "
                + "saw (\(failure.signature)): the failure depends on timing"
        }
        var finding = try save(failure, file: file, first: first, shrunk: shrunk, report: report, failing: failing, rates: (before, after))
        finding.confirmMs = (ContinuousClock.now - started).wholeMilliseconds
        return (finding, report, failure, runs)
    }

    /// The finding of a written file, and the file itself: the scenario below the comments
    /// that say what it promises.
    func save(_ failure: HuntOracle.Failure, file: (name: String, path: String, url: URL, summary: String, plain: String), first: HuntSchedule,
              shrunk: HuntShrinker.Outcome, report: CaseReport, failing: Int,
              rates: (before: HuntShrinker.Rate, after: HuntShrinker.Rate)) throws(Problem) -> HuntFinding {
        var finding = HuntFinding(
            name: file.name, file: file.path, failure: failure.signature, schedule: first.index, failingSchedules: failing,
            stepsBefore: first.steps.count, stepsAfter: shrunk.schedule.steps.count, shrinkRuns: shrunk.runs, shrinkMs: 0,
            cutShort: shrunk.cutShort, reproduced: rates.after.failed > 0, reproduce: report.reproduce, yaml: "")
        finding.untriedSteps = shrunk.cutShort ? shrunk.untriedSteps : nil
        finding.reproducedRuns = rates.after.failed
        finding.reproduceTries = rates.after.tries
        finding.flaky = !rates.after.isFull || !rates.before.isFull
        finding.explanation = report.explanation
        finding.yaml = FindingFile.header(finding, before: rates.before) + file.plain
        do {
            try Data(finding.yaml.utf8).write(to: file.url)
        } catch {
            throw .cannotWrite("cannot write \(file.path): \(error.localizedDescription)")
        }
        return finding
    }

    /// A finding's file: its name (the failure's, made unique), where it goes, and the
    /// scenario it holds.
    func findingFile(for failure: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
                     fixedName: (name: String, origin: String)?) -> (name: String, path: String, url: URL, summary: String, plain: String) {
        var name = fixedName?.name ?? failure.name
        var suffix = 2
        while fixedName == nil, names.contains(name) {
            name = "\(failure.name)-\(suffix)"
            suffix += 1
        }
        names.insert(name)
        let path = (foundPath.hasSuffix("/") ? foundPath : foundPath + "/") + name + ".yaml"
        let origin = fixedName?.origin ?? "seed \(seed), schedule \(first.index)"
        let summary = "\(Self.findingSummaryPrefix) (\(origin), shrunk from \(first.steps.count) to "
            + "\(shrunk.schedule.steps.count) steps): \(Self.describe(failure))."
        return (name, path, foundDirectory.appendingPathComponent(name + ".yaml"), summary, shrunk.schedule.yaml(name: name, summary: summary))
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

    /// A shrink's cap on how long a failed read is asked again: three times the slowest
    /// recovery the hunt's schedules showed, at least a second; nil when that is not
    /// shorter than the oracle's bound (an app that backs off before it retries keeps the
    /// whole bound). What a shrunk file shows is then run at the bound itself.
    static func recoveryCap(slowestRecoveryMs: Int, bound: Duration = HuntOracle.recoveryBound) -> Duration? {
        let cap = max(Duration.seconds(1), .milliseconds(3 * slowestRecoveryMs))
        return cap < bound ? cap : nil
    }
}
