import Foundation
import ChaosTarget

/// `chaos explore`: SQLite's own fault-count and crash sweeps, as app-level trials.
///
/// - `io`: run the workload failing its 1st, 2nd, … Nth I/O operation (read, write,
///   sync, truncate), once and for good, until a run completes with no fault fired:
///   every I/O operation of the workload's first launch is then covered.
/// - `crash`: lose power at every write and every sync of the workload's first
///   launch, in each mode (drop, keep, torn), with K seeds.
///
/// Every trial is a case of its own, in child processes, judged on `no-trap`,
/// `integrity: ok` and `preserved: acknowledged` (the scenario's own expectations and
/// `expect-error` steps describe one fault, not every one). Trials are judged in
/// order, whatever `jobs` says, so the first failure is already the minimal reproduction.
package struct Sweeper {
    package enum Kind: String, Sendable, CaseIterable { case io, crash }

    package var scenario: Scenario
    package var options: RunOptions
    package var kind: Kind
    /// At most this many trials.
    package var limit: Int
    /// Crash sweeps: seeds per crash point and mode.
    package var seeds: Int
    /// Trials run at a time (each in its own child processes). The outcome is the same
    /// for any value: results are judged in trial order.
    package var jobs: Int = 1
    package var modes: [PowerLossStep.Mode] = PowerLossStep.Mode.allCases

    package init(scenario: Scenario, options: RunOptions, kind: Kind, limit: Int, seeds: Int) {
        self.scenario = scenario
        self.options = options
        self.kind = kind
        self.limit = limit
        self.seeds = seeds
    }

    package struct Outcome: Sendable {
        package var trials: Int = 0
        /// I/O operations or crash points tried, out of those the workload has.
        package var pointsCovered: Int = 0
        package var pointsTotal: Int?
        /// Failed trials by what failed: trap, hang, integrity, lost-acknowledged, errored.
        package var failures: [String: Int] = [:]
        package var firstFailure: (trial: SweepTrial, report: CaseReport)?
        package var durationMs: Int = 0
        /// The trials that were not passed, in order.
        package var failedReports: [CaseReport] = []
        /// Trials whose fault never fired: they cover no point.
        package var idleTrials = 0

        package var failedTrials: Int { failedReports.count }
    }

    /// The scenario a trial runs: the same steps, less its own power losses (a crash
    /// sweep brings its own) and its `expect-error` marks, judged on the sweep's checks.
    var trialScenario: Scenario {
        var copy = scenario
        copy.steps = scenario.steps.compactMap { step in
            switch step.action {
            case .powerLoss:
                return nil
            case var .perform(action):
                action.expectError = nil
                var changed = step
                changed.action = .perform(action)
                return changed
            default:
                return step
            }
        }
        copy.expectations = oracle.map { ScenarioExpectation(kind: $0, location: scenario.location) }
        return copy
    }

    /// What every trial is judged on: the scenario's own data expectations when it has
    /// any (`no-silent-loss`, `integrity`, `preserved: acknowledged`: the storage
    /// catalog's), else the store's integrity and every acknowledged write kept. The
    /// scenario's other expectations describe its one fault, not every one.
    var oracle: [Expectation] {
        let own = scenario.expectations.map(\.kind).filter { kind in
            [.noSilentLoss, .integrity, .integrityIfUsed, .preserved(Expectation.acknowledged)].contains(kind)
        }
        return own.isEmpty ? [.integrity, .preserved(Expectation.acknowledged)] : own
    }

    /// Runs the sweep; `progress` hears after each trial (trials so far, planned total if known, failures).
    package func run(progress: (Int, Int?, Int) -> Void = { _, _, _ in }) -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = Outcome()
        switch kind {
        case .io: runIO(&outcome, progress: progress)
        case .crash: runCrash(&outcome, progress: progress)
        }
        outcome.durationMs = (clock.now - start).wholeMilliseconds
        return outcome
    }

    /// What one trial came to: its report, whether its fault fired, and the writes and
    /// syncs the app made while a trial power loss waited (a counting run's answer).
    package struct TrialResult: Sendable {
        package var report: CaseReport
        package var fired: Bool
        package var io: (writes: Int, syncs: Int)?
    }

    /// Runs one trial (also what `--trial` reproduces): the trial scenario with the
    /// trial's steps woven in (``TrialPlan``), as a normal case.
    package func runTrial(_ trial: SweepTrial) -> TrialResult {
        var report = CaseRunner(scenario: TrialPlan.apply(trial, to: trialScenario), options: options).run()
        report.reproduce = reproduceCommand(trial)
        let activity = report.faults?.first { $0.id == TrialPlan.faultID }
        let io = activity.flatMap { activity in activity.writes.map { ($0, activity.syncs ?? 0) } }
        return TrialResult(report: report, fired: (activity?.fired ?? 0) > 0, io: io)
    }

    /// The command that runs `trial` alone (the whole sweep when nil).
    package func reproduceCommand(_ trial: SweepTrial?) -> String {
        var words = ["chaos", "explore", ScenarioLoader.subject(of: scenario), "--sweep", kind.rawValue]
        if let trial { words += ["--trial", trial.description] }
        if let seed = options.seed { words += ["--seed", String(seed)] }
        words += ["--variant", options.variant] + options.reproduceExtras
        return words.map(ShellWords.quoted).joined(separator: " ")
    }

    private func runIO(_ outcome: inout Outcome, progress: (Int, Int?, Int) -> Void) {
        // Trial 2k is operation k+1 failing once, trial 2k+1 the same operation for good.
        var firedAtAll = false
        TrialPool<(report: CaseReport, fired: Bool)>(jobs: jobs).run(
            trial: { index in
                index < limit ? .ioError(operation: index / 2 + 1, persistent: index % 2 == 1) : nil
            },
            run: { trial in
                let result = runTrial(trial)
                return (result.report, result.fired)
            },
            consume: { index, trial, result in
                record(trial, result.report, into: &outcome)
                progress(outcome.trials, nil, outcome.failedTrials)
                if !result.fired { outcome.idleTrials += 1 }
                firedAtAll = firedAtAll || result.fired
                guard index % 2 == 1 else { return true }
                let operation = index / 2 + 1
                if !firedAtAll {
                    // No operation numbered this high: every one before it was covered.
                    outcome.pointsTotal = operation - 1
                    return false
                }
                outcome.pointsCovered = operation
                firedAtAll = false
                return true
            })
    }

    private func runCrash(_ outcome: inout Outcome, progress: (Int, Int?, Int) -> Void) {
        // A counting run: a crash point past the end never fires and counts the writes and syncs.
        let counting = runTrial(.powerLoss(.afterWrites(1_000_000_000), mode: .keep, seed: 0))
        guard let io = counting.io else {
            outcome.failures["errored", default: 0] += 1
            outcome.failedReports.append(counting.report)
            return
        }
        var points: [PowerLossStep.Moment] = (0..<io.writes).map { .afterWrites($0 + 1) } + (0..<io.syncs).map { .atSync($0 + 1) }
        outcome.pointsTotal = points.count
        let perPoint = modes.count * max(1, seeds)
        let affordable = max(1, limit / perPoint)
        if points.count > affordable {
            // Evenly spread over the workload, first and last included, deterministic.
            let stride = Double(points.count - 1) / Double(max(1, affordable - 1))
            points = (0..<affordable).map { points[min(points.count - 1, Int((Double($0) * stride).rounded()))] }
        }
        var trials: [SweepTrial] = []
        for point in points {
            for mode in modes {
                for seed in 1...UInt64(max(1, seeds)) { trials.append(.powerLoss(point, mode: mode, seed: seed)) }
            }
        }
        trials = Array(trials.prefix(limit))
        var pointFired = false
        TrialPool<TrialResult>(jobs: jobs).run(
            trial: { index in index < trials.count ? trials[index] : nil },
            run: { trial in runTrial(trial) },
            consume: { index, trial, result in
                record(trial, result.report, into: &outcome)
                progress(outcome.trials, trials.count, outcome.failedTrials)
                if !result.fired { outcome.idleTrials += 1 }
                pointFired = pointFired || result.fired
                // A point whose cut never came in any of its trials is not covered.
                if (index + 1) % perPoint == 0 {
                    if pointFired { outcome.pointsCovered += 1 }
                    pointFired = false
                }
                return true
            })
    }

    private func record(_ trial: SweepTrial, _ report: CaseReport, into outcome: inout Outcome) {
        outcome.trials += 1
        // Inconclusive: one of the scenario's own faults found nothing to act on in this
        // trial's flow; the trial's fault is judged by whether it fired, not a failure.
        guard report.verdict != .passed, report.verdict != .inconclusive else { return }
        for kind in Self.failureKinds(report) { outcome.failures[kind, default: 0] += 1 }
        outcome.failedReports.append(report)
        if outcome.firstFailure == nil { outcome.firstFailure = (trial, report) }
    }

    /// What failed in a trial, in the words of the summary.
    static func failureKinds(_ report: CaseReport) -> [String] {
        if report.verdict == .errored { return ["errored"] }
        if report.verdict == .interrupted { return ["interrupted"] }
        var kinds: [String] = []
        if report.trap != nil { kinds.append("trap") }
        for failed in report.expectations where !failed.passed {
            switch failed.kind {
            case "no-trap" where report.trap == nil: kinds.append("hang or unexpected exit")
            case "integrity": kinds.append("integrity")
            case "preserved": kinds.append(failed.observed.contains("acknowledged, 0 lost") ? "unexpected records" : "lost acknowledged writes")
            case "no-silent-loss": kinds.append("silent data loss")
            default: break
            }
        }
        return kinds.isEmpty ? ["other"] : Array(Set(kinds)).sorted()
    }
}
