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
        var runs = 0
        var first = first
        var hunter = self
        // A hang's file is confirmed at the case's full timeout: its shrink leaves room for
        // that run before the hunt's end, so a hunt ends within its budget.
        let deadline = first.failure.kind == .hang ? min(deadline, end.map { $0 - Self.confirmingAHang } ?? deadline) : deadline
        // The schedule's runs that failed so: the one that found it, and its run at the full timeout.
        var failedSo = 1
        // A hang under the hunt's bound on one step is run once at the case's full timeout
        // before it is shrunk: a failure that is no hang there (a launch that answers after
        // a library's 10 s connect timeout) is shrunk as what it is. A hang there too is the
        // second try of its rate.
        if first.failure.kind == .hang, ContinuousClock.now + Self.confirmingAHang < deadline,
           let scenario = try? first.schedule.scenario(name: first.schedule.caseName, summary: "Schedule \(first.schedule.index) of hunt seed \(seed).",
                                                       file: "hunt/\(first.schedule.caseName).yaml"),
           let full = runScenario(scenario, times: 1).first.flatMap({ $0 }) {
            runs += 1
            let failure = judge(first.schedule, full)
            if first.failure.sameCore(failure) { failedSo = 2 }
            if let failure, !first.failure.sameCore(failure), failure.isAtAStep || failure.kind == .expectations {
                Self.debug("schedule \(first.schedule.index): \(first.failure.signature) under the bound is \(failure.signature) at the full timeout")
                first.failure = failure
                first.report = full
                // A slow step, not a hang: the bound is raised past it, for this shrink (its
                // candidates would otherwise all hang under the bound, each a rejected run)
                // and for the rounds after it.
                hunter.options.stepBound = hunter.options.stepBound.map { Self.stepBound($0, pastTheStepsOf: full, steps: first.schedule.steps) }
            }
        }
        let rate = ContinuousClock.now < deadline || failedSo > 1
            ? hunter.rate(of: first.schedule, failing: first.failure, alreadyFailed: failedSo, runs: &runs, until: deadline).rate : .always
        // Candidates ask a failed read again for no longer than the hunt's slowest recovery
        // allows (a candidate that stays broken waits that, not the scenario's 5 s); the
        // file is run at the scenario's own bound before it is written.
        var shrinking = hunter
        shrinking.options.recoveryPollCap = slowestRecoveryMs.flatMap { Self.recoveryCap(slowestRecoveryMs: $0) }
        let shrinker = HuntShrinker(evaluate: { shrinking.runSchedules($0) }, judge: judge, jobs: jobs, deadline: deadline)
        let shrunk = shrinker.shrink(first.schedule, report: first.report, failure: first.failure, rate: rate)
        runs += shrunk.runs
        // Shrunk, the faults at work are the ones the failure needs.
        let failure = judge(shrunk.schedule, shrunk.report) ?? first.failure
        let tries = end.map { ContinuousClock.now < $0 } ?? true ? HuntConfirmation.triesAfter : 1
        var written = try hunter.write(failure, from: first.schedule, shrunk: shrunk, names: &names, failing: failing, rate: rate,
                                       tries: tries, until: deadline)
        runs += written.runs
        written.finding.shrinkRuns = shrunk.runs
        return (written.finding, written.report, written.failure, runs, hunter.options.stepBound)
    }

    /// What a hang's run at the case's full timeout takes at most, and a second.
    static var confirmingAHang: Duration { .seconds(HuntSchedule.timeoutSeconds + 1) }

    /// `bound` raised past the slowest launch and the slowest other step of `report`
    /// (half as long again, and a second): what a slow step that answers needs.
    static func stepBound(_ bound: StepBound, pastTheStepsOf report: CaseReport, steps: [HuntStep]) -> StepBound {
        func isLaunch(_ record: StepRecord) -> Bool { steps.indices.contains(record.index - 1) && steps[record.index - 1] == .launch }
        func past(_ records: [StepRecord]) -> Duration {
            .milliseconds((records.map(\.durationMs).max() ?? 0) * 3 / 2 + 1_000)
        }
        return StepBound(launch: max(bound.launch, past(report.steps.filter(isLaunch))),
                         action: max(bound.action, past(report.steps.filter { !isLaunch($0) })))
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
              until: ContinuousClock.Instant? = nil) -> (rate: HuntShrinker.Rate, report: CaseReport?) {
        var failed = alreadyFailed
        var done = alreadyFailed
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
    ///
    /// A hang seen under the hunt's bound on one step that the file, run at the case's
    /// full timeout, shows as a slow answer instead (a connect that gives up after 10 s)
    /// is that failure: the finding is named and said as the file fails.
    func write(_ found: HuntOracle.Failure, from first: HuntSchedule, shrunk: HuntShrinker.Outcome, names: inout Set<String>,
               failing: Int, rate before: HuntShrinker.Rate, tries: Int = HuntConfirmation.triesAfter,
               until: ContinuousClock.Instant? = nil, fixedName: (name: String, origin: String)? = nil)
        throws(Problem) -> (finding: HuntFinding, report: CaseReport, failure: HuntOracle.Failure, runs: Int) {
        var failure = found
        var shrunk = shrunk
        var file = findingFile(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
        var runs = 0
        var report = shrunk.report
        var after = HuntShrinker.Rate(failed: 0, tries: 0)
        func measure() {
            guard let loaded = try? ScenarioLoader.load(yaml: file.plain, file: file.path, baseDirectory: nil) else { return }
            let measured = rate(of: shrunk.schedule, failing: failure, alreadyFailed: 0, runs: &runs, tries: tries, scenario: loaded,
                                until: until)
            after = measured.rate
            if let measuredReport = measured.report { report = measuredReport }
        }
        measure()
        Self.debug("finding \(failure.signature): \(after.text) from its file; the file's run: \(report.verdict) "
            + "\(report.expectations.filter { !$0.passed }.map(\.observed)) \(judge(shrunk.schedule, report)?.signature ?? "no failure")")
        if failure.kind == .hang, after.failed == 0, let slow = judge(shrunk.schedule, report), !failure.sameCore(slow) {
            // Slow, not hung: judged as such, its faults cleared at the end so that the app
            // relaunched to read what it kept is not judged through them.
            names.remove(file.name)
            if !shrunk.schedule.isWellFormed(for: slow) {
                shrunk.schedule.steps.append(.clear("all"))
                if let scenario = try? shrunk.schedule.scenario(name: file.name, summary: file.summary, file: file.path),
                   let again = runScenario(scenario, times: 1).first.flatMap({ $0 }) {
                    report = again
                    runs += 1
                }
            }
            failure = judge(shrunk.schedule, report) ?? slow
            file = findingFile(for: failure, from: first, shrunk: shrunk, names: &names, fixedName: fixedName)
            measure()
        }
        report.scenario = file.name
        report.summary = file.summary
        report.explanation = FindingExplanation(report: report, failure: failure).text
        if after.failed == 0 {
            report.error = (report.error.map { $0 + "; " } ?? "") + "the written file, run again \(after.tries) times, never failed as the hunt "
                + "saw (\(failure.signature)): the failure depends on timing"
        }
        let finding = try save(failure, file: file, first: first, shrunk: shrunk, report: report, failing: failing, rates: (before, after))
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
