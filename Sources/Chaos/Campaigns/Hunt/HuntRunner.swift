import ChaosTarget
import Foundation

/// Runs a hunt's schedules as cases, `jobs` at a time, and judges them by the oracle:
/// what the discovery, the rounds, the shrinking and the confirmation all run through.
/// Its options are the ones every case runs with — the schedule's own seed, never the
/// hunt's; its plan, what the hunt asks of each case: the bound on a step
/// (``bounded(by:)``), the servers its workers and remotes come from.
struct HuntRunner {
    var options: RunOptions
    var plan: CasePlan
    let seed: UInt64
    let jobs: Int
    /// The target's remotes (what a network fault that names none acts on), once discovered.
    let remotes: [String]

    init(options: RunOptions, plan: CasePlan, seed: UInt64, jobs: Int, remotes: [String] = []) {
        var options = options
        options.seed = nil
        (self.options, self.plan) = (options, plan)
        self.seed = seed
        self.jobs = jobs
        self.remotes = remotes
    }

    /// What a schedule came to.
    struct Ran: Sendable {
        var report: CaseReport?
        var failure: HuntOracle.Failure?
    }

    /// The same runner, each step of its cases held to `bound` (nil: the case's timeout alone).
    func bounded(by bound: StepBound?) -> HuntRunner {
        var runner = self
        runner.plan.stepBound = bound
        return runner
    }

    /// Runs a schedule; one Chaos could not run (a worker that did not start) runs once
    /// more before it is counted as errored: a harness's hiccup is not the app's failure,
    /// and must not end a night's hunt with exit 2 — nor be hidden when it repeats.
    func runSchedule(_ schedule: HuntSchedule, slot: TrialSlot? = nil) -> Ran {
        guard var report = runCase(schedule, slot: slot) else { return Ran(report: nil, failure: nil) }
        if report.verdict == .errored, let again = runCase(schedule, slot: slot) { report = again }
        return Ran(report: report, failure: judge(schedule, report))
    }

    /// How a schedule's report failed the oracle.
    func judge(_ schedule: HuntSchedule, _ report: CaseReport) -> HuntOracle.Failure? {
        HuntOracle.failure(of: report, steps: schedule.steps, remotes: remotes)
    }

    /// The scenario a schedule runs as, named for its index.
    func scenario(of schedule: HuntSchedule) throws(ScenarioError) -> Scenario {
        try schedule.scenario(name: schedule.caseName, summary: "Schedule \(schedule.index) of hunt seed \(seed).",
                              file: "hunt/\(schedule.caseName).yaml")
    }

    /// Runs one schedule as a case; nil when the format or the target refuses it (a
    /// candidate of the shrinker that dropped what another step needs).
    func runCase(_ schedule: HuntSchedule, slot: TrialSlot? = nil) -> CaseReport? {
        guard let scenario = accepted(schedule) else { return nil }
        return CaseRunner(scenario: scenario, options: options, plan: plan.holding(slot)).run()
    }

    /// The scenario a schedule runs as, when the format and the target take it; nil otherwise.
    func accepted(_ schedule: HuntSchedule) -> Scenario? {
        guard schedule.isWellFormed, !schedule.deletesEvery(Set(options.target.declaration.files.keys).subtracting(["shm"])) else { return nil }
        let scenario: Scenario
        do { scenario = try self.scenario(of: schedule) } catch {
            Self.debug("schedule \(schedule.index) refused: \(error)")
            return nil
        }
        let problems = ScenarioTargetCheck.problems(scenario, target: options.target.declaration)
        guard problems.isEmpty else {
            Self.debug("schedule \(schedule.index) refused by the target: \(problems)")
            return nil
        }
        return scenario
    }

    /// The same runner, its cases counting the fault points the app's code hits (what a
    /// guided hunt's signatures begin with).
    func countingPoints() -> HuntRunner {
        var runner = self
        runner.plan.countPoints = true
        return runner
    }

    /// Runs schedules `jobs` at a time, their reports in order.
    func runSchedules(_ schedules: [HuntSchedule], jobs: Int? = nil) -> [CaseReport?] {
        Self.inOrder(schedules.count, jobs: jobs ?? self.jobs) { runCase(schedules[$0], slot: $1) }
    }

    /// A shrinker whose candidates are this runner's cases, judged by its oracle.
    func shrinker(deadline: ContinuousClock.Instant) -> HuntShrinker {
        HuntShrinker(evaluate: { runSchedules($0) }, judge: judge, jobs: jobs, deadline: deadline)
    }

    /// Runs `count` cases `jobs` at a time, their reports in index order.
    static func inOrder(_ count: Int, jobs: Int, run: (Int, TrialSlot) -> CaseReport?) -> [CaseReport?] {
        var reports = [CaseReport?](repeating: nil, count: count)
        TrialPool<Int, CaseReport?>(jobs: jobs).run(
            trial: { $0 < count ? $0 : nil },
            run: run,
            consume: { index, _, report in
                reports[index] = report
                return true
            })
        return reports
    }

    /// `CHAOS_HUNT_DEBUG=1`: why a schedule was refused or errored, on stderr.
    static func debug(_ text: @autoclosure () -> String) {
        guard ProcessInfo.processInfo.environment["CHAOS_HUNT_DEBUG"] != nil else { return }
        FileHandle.standardError.write(Data((text() + "\n").utf8))
    }
}
