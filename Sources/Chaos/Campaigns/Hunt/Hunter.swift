import ChaosTarget
import FaultPoints
import Foundation

/// `chaos hunt`: schedules no one wrote, generated from the run's seed over what
/// reaches the target (``HuntSurface``, ``HuntGenerator``), each judged by the generic
/// oracle (``HuntOracle``); the first schedule to fail each distinct way is shrunk
/// (``HuntShrinker``) and written as a scenario file to commit as the regression test.
///
/// Schedules run `jobs` at a time and are read in index order, and every finding is
/// shrunk from the first schedule (by index) that failed that way: the same seed and
/// `--schedules N` give the same findings for any `jobs`, and shards (every Nth index)
/// merged give the same as the whole (``HuntSummary/merged(_:)``). A `--budget` bounds
/// the time instead: 40 % for schedules, the rest for shrinking.
package struct Hunter {
    package var options: RunOptions
    package var seed: UInt64
    /// `--schedules N`: run schedules 0..<N (this shard's share of them).
    package var schedules: Int?
    /// `--budget`: stop running schedules, and shrinking, in time.
    package var budget: Duration?
    package var jobs = 1
    /// `--shard I/N` (1-based): this hunt runs the schedules whose index is I-1 modulo N.
    package var shard: (index: Int, count: Int)?
    /// Where findings are written, and how reproduce lines name that folder.
    package var foundDirectory: URL
    package var foundPath: String
    /// The target's remotes (what a network fault that names none acts on), once discovered.
    var remotes: [String] = []
    /// A hunt aimed at one crash (`chaos reproduce --from-crash`): what its schedules lean
    /// towards, and the trap it looks for. It stops at the first schedule that traps that
    /// way, and makes that one failure its finding.
    package var aim: (lean: HuntAim, wanted: @Sendable (TrapRecord) -> Bool)?

    package init(options: RunOptions, seed: UInt64, foundDirectory: URL, foundPath: String) {
        var options = options
        options.scratchRoot = ScratchFolder.trialRoot(options.scratchRoot)
        self.options = options
        self.seed = seed
        self.foundDirectory = foundDirectory
        self.foundPath = foundPath
    }

    /// The options each case runs with: the schedule's own seed, never the hunt's.
    var caseOptions: RunOptions {
        var caseOptions = options
        caseOptions.seed = nil
        return caseOptions
    }

    package enum Problem: Error, CustomStringConvertible {
        case noWorkload(String)
        case cannotWrite(String)
        /// A file `--shrink` cannot read as a hunt's finding.
        case badFile(String)

        package var description: String {
            switch self {
            case let .noWorkload(target):
                "\(target) declares no workload: a hunt writes and reads the app's data through it, and reads it back at the end of "
                    + "every schedule. Add `static let workload: Workload? = Workload(write: \"...\", read: \"...\")` (docs/TARGETS.md)"
            case let .cannotWrite(reason), let .badFile(reason): reason
            }
        }
    }

    /// What a schedule came to.
    struct Ran: Sendable {
        var report: CaseReport?
        var failure: HuntOracle.Failure?
    }

    package enum Progress {
        case discovered(HuntSurface, cases: Int)
        case ran(done: Int, failed: Int, findings: Int)
        case shrinking(HuntOracle.Failure, steps: Int)
        case found(HuntFinding)
        /// What was being shrunk turned out to be a finding's cause already written.
        case sameAs(HuntOracle.Failure, finding: HuntFinding)
        /// A hang its file never showed at the case's full timeout: a slow step, dropped.
        case notAHang(HuntOracle.Failure)
    }

    package func run(progress: (Progress) -> Void = { _ in }) throws(Problem) -> HuntOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        guard let workload = options.target.declaration.workload else { throw .noWorkload(options.target.name) }
        try makeFoundDirectory()
        var hunt = self
        let stopServers = hunt.startServers()
        defer { stopServers() }
        var outcome = HuntOutcome(seed: seed)
        let (surface, plainCases, slowest) = hunt.discoverSurface(workload: workload)
        outcome.surface = surface
        hunt.remotes = surface.remotes
        hunt.options.stepBound = .learnt(slowestLaunchMs: slowest.launchMs, slowestActionMs: slowest.actionMs)
        progress(.discovered(surface, cases: plainCases))
        let generator = HuntGenerator(surface: surface, seed: seed, aim: aim?.lean ?? HuntAim())
        var plan = HuntBudget(start: start, budget: budget, jobs: jobs)
        var found = HuntFound()
        // Rounds: schedules while the budget allows, then the new failures shrunk; with
        // time left (a budget's reckoning is cautious), schedules again from where they
        // stopped. A hunt of `--schedules N` is one round.
        while true {
            let ran = hunt.runRound(generator, plan: &plan, found: &found, outcome: &outcome, progress: progress)
            try hunt.shrinkNew(&found, plan: plan, outcome: &outcome, progress: progress)
            let exhausted = hunt.schedules.map { hunt.index(ofOffset: found.nextOffset) >= $0 } ?? false
            guard ran, !exhausted, aim == nil || found.firsts.isEmpty, !RunInterruption.requested,
                  plan.mayStartRound(at: clock.now), plan.mayRunSchedules(at: clock.now, toShrink: []) else { break }
        }
        try hunt.resumeCutShort(found, plan: plan, outcome: &outcome, progress: progress)
        found.countFailing(in: &outcome, workload: workload)
        if RunInterruption.requested { outcome.interrupted = true }
        outcome.durationMs = (clock.now - start).wholeMilliseconds
        return outcome
    }

    /// Workers forked from servers started once (AFL's fork server), `jobs` of them, their
    /// logs in a scratch folder that goes with them; remotes started ahead of the cases
    /// that take them (``RemotePool``), their folders in the same.
    /// Returns what stops them.
    mutating func startServers() -> () -> Void {
        let logs = try? ScratchFolder.make(in: options.scratchRoot, for: "hunt")
        let pool = ForkServerPool(size: jobs, logDirectory: logs ?? options.scratchRoot)
        options.forkServers = pool
        let remotes = logs.map(RemotePool.init(in:))
        options.remotePool = remotes
        return {
            remotes?.shutDown()
            pool.shutDown()
            if let logs { try? FileManager.default.removeItem(at: logs) }
        }
    }

    /// The first schedule to fail one distinct way, and what shrinking it may cost.
    struct Failing {
        var failure: HuntOracle.Failure
        var schedule: HuntSchedule
        var report: CaseReport

        var cost: HuntBudget.ShrinkCost { HuntBudget.ShrinkCost(steps: schedule.steps.count, caseMs: report.durationMs) }
    }

    /// A hang known in seconds: within a hunt and its shrinking (``StepBound/learnt(slowestLaunchMs:slowestActionMs:)``
    /// from the plain run; a file shrunk on with no plain run, from none).
    /// A slow answer below that is still judged by `recovered-within`; a hang is confirmed
    /// at the full timeout.
    static func stepBound(slowestPlainMs: Int) -> StepBound { .learnt(slowestPlainMs: slowestPlainMs) }

    /// The schedule index of this hunt's `offset`-th schedule (its shard's share).
    func index(ofOffset offset: Int) -> Int {
        guard let (index, count) = shard else { return offset }
        return offset * count + (index - 1)
    }

    /// Runs a schedule; one Chaos could not run (a worker that did not start) runs once
    /// more before it is counted as errored: a harness's hiccup is not the app's failure,
    /// and must not end a night's hunt with exit 2 — nor be hidden when it repeats.
    func runSchedule(_ schedule: HuntSchedule) -> Ran {
        guard var report = runCase(schedule) else { return Ran(report: nil, failure: nil) }
        if report.verdict == .errored, let again = runCase(schedule) { report = again }
        return Ran(report: report, failure: judge(schedule, report))
    }

    /// How a schedule's report failed the oracle.
    func judge(_ schedule: HuntSchedule, _ report: CaseReport) -> HuntOracle.Failure? {
        HuntOracle.failure(of: report, steps: schedule.steps, remotes: remotes)
    }

    /// Runs one schedule as a case; nil when the format or the target refuses it (a
    /// candidate of the shrinker that dropped what another step needs).
    func runCase(_ schedule: HuntSchedule, name: String? = nil, file: String? = nil) -> CaseReport? {
        let name = name ?? schedule.caseName
        guard schedule.isWellFormed else { return nil }
        let scenario: Scenario
        do {
            scenario = try schedule.scenario(name: name, summary: "Schedule \(schedule.index) of hunt seed \(seed).", file: file ?? "hunt/\(name).yaml")
        } catch {
            Self.debug("schedule \(schedule.index) refused: \(error)")
            return nil
        }
        let problems = ScenarioTargetCheck.problems(scenario, target: options.target.declaration)
        guard problems.isEmpty else {
            Self.debug("schedule \(schedule.index) refused by the target: \(problems)")
            return nil
        }
        return CaseRunner(scenario: scenario, options: caseOptions).run()
    }

    /// Runs schedules `jobs` at a time, their reports in order.
    func runSchedules(_ schedules: [HuntSchedule], jobs: Int? = nil) -> [CaseReport?] {
        var reports = [CaseReport?](repeating: nil, count: schedules.count)
        TrialPool<HuntSchedule, CaseReport?>(jobs: jobs ?? self.jobs).run(
            trial: { $0 < schedules.count ? schedules[$0] : nil },
            run: { runCase($0) },
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

    /// Makes the findings' folder, and removes the findings an earlier hunt wrote there
    /// (recognised by their summary): a file of anyone else is never touched.
    private func makeFoundDirectory() throws(Problem) {
        do {
            try FileManager.default.createDirectory(at: foundDirectory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite("cannot make \(foundPath) for the findings: \(error.localizedDescription)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: foundDirectory.path)) ?? []
        for name in names where name.hasSuffix(".yaml") {
            let file = foundDirectory.appendingPathComponent(name)
            guard let text = try? String(contentsOf: file, encoding: .utf8), Self.wroteByHunt(text) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Whether a scenario file's text is a finding a hunt wrote.
    package static func wroteByHunt(_ text: String) -> Bool {
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }
        return body.first?.hasPrefix("name: ") == true && text.contains("\nsummary: \"\(findingSummaryPrefix)")
    }

    static let findingSummaryPrefix = "Found by chaos hunt"
}
