import ChaosTarget
import FaultPoints
import Foundation

/// `chaos hunt`: schedules no one wrote, generated from the run's seed over what
/// reaches the target (``SurfaceDiscovery``, ``HuntGenerator``), run in rounds
/// (``HuntRounds``), each judged by the generic oracle (``HuntOracle``); the first
/// schedule to fail each distinct way is shrunk (``FindingShrinker``) and written as a
/// scenario file to commit as the regression test (``FindingWriter``).
///
/// Schedules run `jobs` at a time and are read in index order, and every finding is
/// shrunk from the first schedule (by index) that failed that way: the same seed and
/// `--schedules N` give the same findings for any `jobs`, and shards (every Nth index)
/// merged give the same as the whole (``HuntSummary/merged(_:)``). A `--budget` bounds
/// the time instead: 40 % for schedules, the rest for shrinking.
package struct Hunter {
    package var options: RunOptions
    /// The servers its cases' workers and remotes come from, while it runs.
    private var servers = CasePlan()
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
    /// A hunt aimed at one crash (`chaos reproduce --from-crash`): what its schedules lean
    /// towards, and the trap it looks for. It stops at the first schedule that traps that
    /// way, and makes that one failure its finding.
    package var aim: (lean: HuntAim, wanted: @Sendable (TrapRecord) -> Bool)?
    /// `--strategy`: how schedules are chosen (``HuntGuide``). Shards always draw them at
    /// random: a guided hunt's corpus is the whole hunt's, which no shard holds.
    package var strategy = HuntStrategy.random
    /// `--stop-at-first-failure`: stop at the first schedule that fails, and shrink only
    /// that one (how long a hunt takes to find something: ``HuntOutcome/firstFailureMs``).
    package var stopAtFirstFailure = false

    package init(options: RunOptions, seed: UInt64, foundDirectory: URL, foundPath: String) {
        var options = options
        options.scratchRoot = ScratchFolder.trialRoot(options.scratchRoot)
        self.options = options
        self.seed = seed
        self.foundDirectory = foundDirectory
        self.foundPath = foundPath
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
        try FindingWriter.prepare(foundDirectory, path: foundPath)
        var hunt = self
        let stopServers = hunt.startServers()
        defer { stopServers() }
        var outcome = HuntOutcome(seed: seed)
        let discovered = SurfaceDiscovery(runner: HuntRunner(options: hunt.options, plan: hunt.servers, seed: seed, jobs: jobs), workload: workload).discover()
        outcome.surface = discovered.surface
        progress(.discovered(discovered.surface, cases: discovered.cases))
        let runner = HuntRunner(options: hunt.options, plan: hunt.servers, seed: seed, jobs: jobs, remotes: discovered.surface.remotes)
            .bounded(by: discovered.stepBound)
        let generator = HuntGenerator(surface: discovered.surface, seed: seed, aim: aim?.lean ?? HuntAim())
        var rounds = HuntRounds(runner: runner, generator: generator, schedules: schedules, shard: shard, wanted: aim?.wanted,
                                guide: strategy == .guided && shard == nil ? HuntGuide(generator: generator, accepts: { runner.accepted($0) != nil }) : nil,
                                stopAtFirstFailure: stopAtFirstFailure)
        outcome.strategy = rounds.guide == nil ? .random : .guided
        var shrinker = FindingShrinker(runner: runner, writer: FindingWriter(runner: runner, directory: foundDirectory, path: foundPath))
        var plan = HuntBudget(start: start, budget: budget, jobs: jobs)
        var found = HuntFound()
        // Rounds: schedules while the budget allows, then the new failures shrunk; with
        // time left (a budget's reckoning is cautious), schedules again from where they
        // stopped. A hunt of `--schedules N` is one round.
        while true {
            let ran = rounds.run(plan: &plan, found: &found, outcome: &outcome, progress: progress)
            try shrinker.shrinkNew(&found, plan: plan, outcome: &outcome, progress: progress)
            // A bound the shrinks raised past a slow step holds for the rounds after.
            rounds.runner = shrinker.runner
            guard ran, !rounds.exhausted(found), aim == nil && !stopAtFirstFailure || found.firsts.isEmpty, !RunInterruption.requested,
                  plan.mayStartRound(at: clock.now), plan.mayRunSchedules(at: clock.now, toShrink: []) else { break }
        }
        try shrinker.resumeCutShort(found, plan: plan, outcome: &outcome, progress: progress)
        outcome.corpus = rounds.guide?.corpus.count
        found.countFailing(in: &outcome, workload: workload)
        if RunInterruption.requested { outcome.interrupted = true }
        outcome.durationMs = (clock.now - start).wholeMilliseconds
        return outcome
    }

    /// `chaos hunt --shrink FILE`: a finding a hunt cut short (or any hunt finding) shrunk
    /// on from where it stands, within the budget, and written again in place, 1-minimal
    /// or saying how far it got. Nil when the file does not fail any more: then there is
    /// nothing to shrink, and the file is left as it is.
    package func shrink(file url: URL, progress: (Progress) -> Void = { _ in }) throws(Problem) -> (HuntFinding, CaseReport)? {
        let start = ContinuousClock.now
        let schedule: HuntSchedule
        do { schedule = try HuntSchedule(findingFile: url) } catch { throw .badFile(error.description) }
        var hunt = self
        let stopServers = hunt.startServers()
        defer { stopServers() }
        // With no plain run to learn from, a hang is known in seconds as a hunt knows it
        // (``StepBound/learnt(slowestPlainMs:)``); a slow answer below that is still judged
        // by `recovered-within`, and a hang is confirmed at the full timeout.
        let runner = HuntRunner(options: hunt.options, plan: hunt.servers, seed: seed, jobs: jobs, remotes: options.target.declaration.remotes.map(\.name).sorted())
            .bounded(by: .learnt(slowestPlainMs: 0))
        let shrinker = FindingShrinker(runner: runner, writer: FindingWriter(runner: runner, directory: foundDirectory, path: foundPath))
        guard let written = try shrinker.shrinkAgain(schedule, name: url.deletingPathExtension().lastPathComponent, since: start,
                                                     deadline: start + (budget ?? .seconds(600)), progress: progress) else { return nil }
        return (written.finding, written.report)
    }

    /// The hunt's fork servers and remote pool (``CasePlan/startServers(jobs:in:for:)``);
    /// returns what stops them.
    private mutating func startServers() -> () -> Void {
        servers.startServers(jobs: jobs, in: options.scratchRoot, for: "hunt")
    }
}
