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
/// `integrity: ok-if-used` and `preserved: acknowledged` (the scenario's own expectations and
/// `expect-error` steps describe one fault, not every one). Trials are judged in
/// order, whatever `jobs` says, so the first failure is already the minimal reproduction.
package struct Sweeper {
    package enum Kind: String, Sendable, CaseIterable { case io, crash }

    package var scenario: Scenario
    package var options: RunOptions
    /// What the sweep asks of each trial's case: the bound on a step, the servers.
    var plan = CasePlan()
    package var kind: Kind
    /// At most this many trials.
    package var limit: Int
    /// Crash sweeps: seeds per crash point and mode.
    package var seeds: Int
    /// Trials run at a time (each in its own child processes). The outcome is the same
    /// for any value: results are judged in trial order.
    package var jobs: Int = 1
    package var modes: [PowerLossFault.Mode] = PowerLossFault.Mode.allCases
    /// Shard I of N (1-based): this sweep takes every Nth point, from the Ith; the
    /// shards of one sweep add up to all of it (``SweepSummary/merged(_:)``).
    package var shard: (index: Int, count: Int)?

    /// Whether the point at `offset` (0-based) is this shard's.
    func isMine(_ offset: Int) -> Bool {
        guard let shard else { return true }
        return offset % shard.count == shard.index - 1
    }

    package init(scenario: Scenario, options: RunOptions, kind: Kind, limit: Int, seeds: Int) {
        self.scenario = scenario
        var options = options
        options.scratchRoot = ScratchFolder.trialRoot(options.scratchRoot)
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
        /// The trials that were not passed, in order, and their reports.
        package var failed: [SweepTrial] = []
        package var failedReports: [CaseReport] = []
        /// Trials whose fault never fired: they cover no point.
        package var idleTrials = 0
        /// Why the sweep had nothing to try (its counting run saw no operation of the
        /// target's storage through any seam): a sweep of nothing is inconclusive, never a pass.
        package var nothingToSweep: String?
        /// Every trial's verdict, in trial order.
        package var verdicts: [Verdict] = []
        /// The slowest trials, slowest first (at most ``slowestKept``): where a sweep's
        /// time goes, and a hang no verdict shows.
        package var slowest: [(trial: SweepTrial, ms: Int)] = []
        package static let slowestKept = 3
        /// Ctrl-C stopped the sweep: the trial cut short and those after it prove nothing.
        package var interrupted = false
        /// Crash trials that passed from an image of their cut, and the launches of the
        /// app on images (one per distinct image, those that did not pass included: ``CrashImages``).
        package var fromImages: (trials: Int, launches: Int)?
        /// Trapping trials by the trap's site (`File.swift:LINE`, or its signal).
        package var trapSites: [String: Int] {
            failedReports.compactMap(\.trap).reduce(into: [:]) { sites, trap in sites[trap.site ?? trap.signalName, default: 0] += 1 }
        }

        package var failedTrials: Int { failedReports.count }

        /// The outcome as a report records it.
        package func summary(kind: Kind, scenario: String, shard: String?) -> SweepSummary {
            var summary = SweepSummary(kind: kind.rawValue, scenario: scenario, trials: trials, pointsTotal: pointsTotal,
                                       pointsCovered: pointsCovered, idleTrials: idleTrials, failures: failures, shard: shard)
            summary.fromImages = fromImages.map { SweepSummary.FromImages(trials: $0.trials, launches: $0.launches) }
            return summary
        }
    }

    /// The scenario a trial runs: the same steps, less its own power losses (a crash
    /// sweep brings its own) and its `expect-error` marks, judged on the sweep's checks.
    var trialScenario: Scenario {
        var copy = scenario
        copy.steps = scenario.steps.compactMap { step in
            switch step.action {
            case let .fault(fault) where fault.fault.family == .power:
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

    /// Where a sweep stands after a trial: trials so far, the planned total if known,
    /// failures, and the trial's report.
    package typealias Progress = (_ trials: Int, _ planned: Int?, _ failed: Int, _ report: CaseReport) -> Void

    /// Runs the sweep; `progress` hears after each trial.
    package func run(progress: Progress = { _, _, _, _ in }) -> Outcome {
        // The trials' workers are forked by warmed-up workers (ForkServer): a trial
        // starts two or three, and a fresh process pays most of a trial's time.
        var sweep = self
        let stop = sweep.plan.startServers(jobs: jobs, in: options.scratchRoot, for: "sweep")
        defer { stop() }
        return sweep.run(images: true, progress: progress)
    }

    /// The sweep on ``options`` as they stand: its trials' workers from their fork servers
    /// and its remotes from their pool, if they have them (``run(progress:)`` starts both),
    /// else spawned and started by each case; `images`: a crash sweep's trials start from
    /// images of their cuts where they can (``CrashImages``), else each runs whole. The
    /// verdicts are the same every way (the sweeps' tests hold them to it).
    func run(images: Bool, progress: Progress) -> Outcome {
        precondition(limit > 0 && seeds > 0 && jobs > 0, "a sweep's limit, seeds and jobs are validated where they are read")
        precondition(shard.map { (1...$0.count).contains($0.index) } ?? true, "a shard is I of N, 1 ≤ I ≤ N")
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = Outcome()
        switch kind {
        case .io: runIO(&outcome, progress: progress)
        case .crash: runCrash(&outcome, images: images, progress: progress)
        }
        nameTrapSites(&outcome)
        if RunInterruption.requested { outcome.interrupted = true }
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
    /// `symbolicate`: name a trap's site (its backtrace read); a sweep's trials only count
    /// theirs, and name the ones it shows afterwards (``nameTrapSites(_:)``).
    package func runTrial(_ trial: SweepTrial, symbolicate: Bool = true, slot: TrialSlot? = nil) -> TrialResult {
        var trialOptions = options
        trialOptions.worker = options.worker.symbolicating(symbolicate)
        var report = CaseRunner(scenario: TrialPlan.apply(trial, to: trialScenario), options: trialOptions, plan: plan.holding(slot)).run()
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

    private func runIO(_ outcome: inout Outcome, progress: Progress) {
        // A counting run: an I/O error past the end never fires and counts the operations.
        let countingTrial = SweepTrial.ioError(operation: Self.pastTheEnd, persistent: false)
        let counting = runTrial(countingTrial)
        guard counting.report.verdict != .interrupted else { return outcome.interrupted = true }
        guard let total = counting.report.faults?.first(where: { $0.id == TrialPlan.faultID })?.hits else {
            outcome.failures["errored", default: 0] += 1
            outcome.failed.append(countingTrial)
            outcome.failedReports.append(counting.report)
            return
        }
        // Each operation fails once (transient), then for good (persistent); a trial that
        // traps is a finding, and the sweep goes on to the next operation.
        if total == 0 { outcome.nothingToSweep = Self.nothingSeen("I/O operation") }
        let operations = Array(1...max(1, total)).prefix(total).filter { isMine($0 - 1) }
        outcome.pointsTotal = operations.count
        let trials = Self.spread(operations[...], over: max(1, limit / 2))
            .flatMap { [SweepTrial.ioError(operation: $0, persistent: false), .ioError(operation: $0, persistent: true)] }
        bounded(by: counting.report).runTrials(trials, perPoint: 2, into: &outcome, progress: progress)
    }

    /// Why a counting run that saw nothing is no pass.
    static func nothingSeen(_ what: String) -> String {
        "nothing to sweep: the counting run saw no \(what) of the target's files under its data folder "
            + "through any seam, so no trial could fail (docs/TARGETS.md, \"Which seam reaches your files\")"
    }

    /// An operation or write count no workload reaches: the trial fault only counts.
    static let pastTheEnd = 1_000_000_000

    /// At most `count` of `points`, evenly spread over them, first and last included.
    static func spread<Point>(_ points: ArraySlice<Point>, over count: Int) -> [Point] {
        precondition(count >= 1, "a spread keeps at least one point")
        let points = Array(points)
        guard points.count > count else { return points }
        let stride = Double(points.count - 1) / Double(max(1, count - 1))
        return (0..<count).map { points[min(points.count - 1, Int((Double($0) * stride).rounded()))] }
    }

    /// Runs `trials` in order, `perPoint` consecutive trials per point: a point is
    /// covered when its fault fired in any of its trials.
    private func runTrials(_ trials: [SweepTrial], perPoint: Int, into outcome: inout Outcome, images: CrashImages? = nil,
                           progress: Progress) {
        var pointFired = false
        TrialPool<SweepTrial, TrialResult>(jobs: jobs).run(
            trial: { index in index < trials.count ? trials[index] : nil },
            run: { trial, slot in images?.run(trial, sweeper: self, slot: slot) ?? runTrial(trial, symbolicate: false, slot: slot) },
            consume: { index, trial, result in
                record(trial, result.report, into: &outcome)
                progress(outcome.trials, trials.count, outcome.failedTrials, result.report)
                if !result.fired { outcome.idleTrials += 1 }
                pointFired = pointFired || result.fired
                if (index + 1) % perPoint == 0 {
                    if pointFired { outcome.pointsCovered += 1 }
                    pointFired = false
                }
                return true
            })
    }

    private func runCrash(_ outcome: inout Outcome, images useImages: Bool, progress: Progress) {
        // A counting run: a crash point past the end never fires and counts the writes and syncs.
        let countingTrial = SweepTrial.powerLoss(.afterWrites(Self.pastTheEnd), mode: .keep, seed: 0)
        let counting = runTrial(countingTrial)
        guard counting.report.verdict != .interrupted else { return outcome.interrupted = true }
        guard let io = counting.io else {
            outcome.failures["errored", default: 0] += 1
            outcome.failed.append(countingTrial)
            outcome.failedReports.append(counting.report)
            return
        }
        let all: [PowerLossFault.Moment] = (0..<io.writes).map { .afterWrites($0 + 1) } + (0..<io.syncs).map { .atSync($0 + 1) }
        if all.isEmpty { outcome.nothingToSweep = Self.nothingSeen("write or sync") }
        let points = all.enumerated().filter { isMine($0.offset) }.map(\.element)
        outcome.pointsTotal = points.count
        let perPoint = modes.count * max(1, seeds)
        var trials: [SweepTrial] = []
        for point in Self.spread(points[...], over: max(1, limit / perPoint)) {
            for mode in modes {
                for seed in 1...UInt64(max(1, seeds)) { trials.append(.powerLoss(point, mode: mode, seed: seed)) }
            }
        }
        let sweep = bounded(by: counting.report)
        trials = Array(trials.prefix(limit))
        let images = useImages ? CrashImages(sweeper: sweep, trials: trials) : nil
        defer { images?.remove() }
        sweep.runTrials(trials, perPoint: perPoint, into: &outcome, images: images, progress: progress)
        outcome.fromImages = images?.counts
    }

    private func record(_ trial: SweepTrial, _ report: CaseReport, into outcome: inout Outcome) {
        // A trial Ctrl-C cut short proved nothing: not counted, never a failure.
        guard report.verdict != .interrupted else {
            outcome.interrupted = true
            return
        }
        outcome.trials += 1
        outcome.verdicts.append(report.verdict)
        outcome.slowest.append((trial, report.durationMs))
        outcome.slowest = Array(outcome.slowest.sorted { $0.ms > $1.ms }.prefix(Outcome.slowestKept))
        // Inconclusive: one of the scenario's own faults found nothing to act on in this
        // trial's flow; the trial's fault is judged by whether it fired, not a failure.
        guard report.verdict != .passed, report.verdict != .inconclusive else { return }
        for kind in SweepTally.kinds(of: report) { outcome.failures[kind, default: 0] += 1 }
        outcome.failed.append(trial)
        outcome.failedReports.append(report)
        if outcome.firstFailure == nil { outcome.firstFailure = (trial, report) }
    }
}
