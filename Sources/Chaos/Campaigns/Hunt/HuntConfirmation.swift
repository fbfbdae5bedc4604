import ChaosTarget
import Foundation

/// How often a finding fails, to know whether it fails every time: its first schedule
/// run a few more times before shrinking (a failure that shows only sometimes is shrunk
/// by candidates that fail at least as often), and its written file after, run as a user
/// runs it.
///
/// Confirming runs go side by side, two at least, whatever `-j`: a failure that shows
/// only on an idle machine (or only under load) is caught as flaky by the same runs at
/// `-j 1` and at `-j 2`, so the two hunts do not disagree without a word.
package struct HuntConfirmation {
    /// Runs of the first failing schedule beyond the one that found it.
    package static let triesBefore = 1
    /// Runs of the written file (the shrinker's last run of the same schedule failed too).
    package static let triesAfter = 2
    /// Runs in all when a failure did not show every time: its rate is out of these.
    package static let flakyTries = 5

    var runner: HuntRunner

    /// How many confirming runs go at once.
    var jobs: Int { max(2, runner.jobs) }

    /// What a rate's runs came to: how often they failed so, the report of a failing run
    /// (of the first, when none failed), every report, and how many runs it took.
    struct Measured {
        var rate: HuntShrinker.Rate
        var report: CaseReport?
        var reports: [CaseReport]
        var runs: Int
    }

    /// How often `schedule` (or the `scenario` of its file) fails as `failure` did: a few
    /// runs, more when one of them did not fail — none past `until`, when what was seen is
    /// said. `alreadyFailed`: runs that failed so, counted already.
    func rate(of schedule: HuntSchedule, failing failure: HuntOracle.Failure, alreadyFailed: Int,
              tries: Int = 1 + triesBefore, scenario: Scenario? = nil, until: ContinuousClock.Instant? = nil) -> Measured {
        var measured = Measured(rate: HuntShrinker.Rate(failed: alreadyFailed, tries: alreadyFailed), report: nil, reports: [], runs: 0)
        var failingReport: CaseReport?
        func run(_ count: Int) {
            guard count > 0 else { return }
            let reports = if let scenario { runFile(scenario, times: count) } else {
                runner.runSchedules(Array(repeating: schedule, count: count), jobs: jobs)
            }
            for report in reports {
                measured.rate.tries += 1
                measured.runs += 1
                guard let report else { continue }
                measured.reports.append(report)
                if failure.sameCore(runner.judge(schedule, report)) {
                    measured.rate.failed += 1
                    failingReport = failingReport ?? report
                }
            }
        }
        run(tries - measured.rate.tries)
        if !measured.rate.isFull, until.map({ ContinuousClock.now < $0 }) ?? true { run(Self.flakyTries - measured.rate.tries) }
        measured.report = failingReport ?? measured.reports.first
        return measured
    }

    /// Runs a finding's scenario `times` times, side by side, from the file as a user runs
    /// it: a step is bounded by the case's timeout alone.
    func runFile(_ scenario: Scenario, times: Int) -> [CaseReport?] {
        let asWritten = runner.bounded(by: nil)
        return HuntRunner.inOrder(times, jobs: jobs) { CaseRunner(scenario: scenario, options: asWritten.options, plan: asWritten.plan.holding($1)).run() }
    }
}
