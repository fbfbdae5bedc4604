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
    }

    package func run(progress: (Progress) -> Void = { _ in }) throws(Problem) -> HuntOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        guard let workload = options.target.declaration.workload else { throw .noWorkload(options.target.name) }
        try makeFoundDirectory()
        var hunt = self
        let logs = try? ScratchFolder.make(in: options.scratchRoot, for: "hunt")
        let pool = ForkServerPool(size: jobs, logDirectory: logs ?? options.scratchRoot)
        hunt.options.forkServers = pool
        defer {
            pool.shutDown()
            if let logs { try? FileManager.default.removeItem(at: logs) }
        }
        var outcome = HuntOutcome(seed: seed)
        let (surface, plainCases, slowestMs) = hunt.discoverSurface(workload: workload)
        outcome.surface = surface
        hunt.remotes = surface.remotes
        hunt.options.stepBound = Self.stepBound(slowestPlainMs: slowestMs)
        progress(.discovered(surface, cases: plainCases))
        let generator = HuntGenerator(surface: surface, seed: seed, aim: aim?.lean ?? HuntAim())
        var plan = HuntBudget(start: start, budget: budget, jobs: jobs)
        var firsts: [String: Failing] = [:]
        var shrunk: [String: Int] = [:]  // a first failure's signature → its finding
        var refined: [HuntOracle.Failure] = []  // each finding's failure, as shrinking left it
        var origins: [Failing] = []  // each finding's first schedule
        var names = Set<String>()
        var nextOffset = 0
        // Rounds: schedules while the budget allows, then the new failures shrunk; with
        // time left (a budget's reckoning is cautious), schedules again from where they
        // stopped. A hunt of `--schedules N` is one round.
        while true {
            let ranAt = clock.now
            let from = nextOffset
            TrialPool<HuntSchedule, Ran>(jobs: jobs).run(
                trial: { offset in
                    let index = hunt.index(ofOffset: from + offset)
                    if let total = hunt.schedules, index >= total { return nil }
                    let waiting = firsts.filter { shrunk[$0.key] == nil }.values.map(\.cost)
                    guard plan.mayRunSchedules(at: clock.now, toShrink: waiting) else { return nil }
                    nextOffset = from + offset + 1
                    return generator.schedule(index)
                },
                run: { hunt.runSchedule($0) },
                consume: { _, schedule, ran in
                    outcome.count(schedule, ran)
                    if let report = ran.report { plan.noteCase(ms: report.durationMs) }
                    if let failure = ran.failure, let report = ran.report, firsts[failure.signature] == nil,
                       aim.map({ aim in report.trap.map(aim.wanted) ?? false }) ?? true {
                        firsts[failure.signature] = Failing(failure: failure, schedule: schedule, report: report)
                    }
                    progress(.ran(done: outcome.schedules, failed: outcome.failedSchedules, findings: firsts.count))
                    return aim == nil || firsts.isEmpty
                })
            outcome.runMs += (clock.now - ranAt).wholeMilliseconds
            let ran = nextOffset > from
            let ordered = firsts.filter { shrunk[$0.key] == nil }.values.sorted { $0.schedule.index < $1.schedule.index }
            for (offset, first) in ordered.enumerated() {
                guard !RunInterruption.requested else { break }
                // A loss whose faults include all those a finding of the same failure was
                // shrunk to has that finding's cause at work: counted there, not shrunk again.
                if first.failure.kind != .trap, first.failure.kind != .hang,
                   let same = refined.firstIndex(where: { $0.sameCore(first.failure) && Set($0.causes).isSubset(of: first.failure.causes) }) {
                    shrunk[first.failure.signature] = same
                    continue
                }
                progress(.shrinking(first.failure, steps: first.schedule.steps.count))
                let shrinkStart = clock.now
                // Each finding gets its share of what is left, by what its shrink is likely to cost.
                let deadline = plan.shrinkDeadline(at: clock.now, cost: first.cost, costsLeft: ordered[offset...].map(\.cost))
                let found = try hunt.finding(for: first, deadline: deadline, end: plan.end, names: &names,
                                             failing: outcome.failuresBySignature[first.failure.signature] ?? 1)
                outcome.shrinkRuns += found.runs
                hunt.options.stepBound = found.stepBound
                var finding = found.finding
                finding.shrinkMs = (clock.now - shrinkStart).wholeMilliseconds
                // A hang its file never showed at the case's full timeout was a slow step, not a hang.
                if found.failure.kind == .hang, !finding.reproduced {
                    outcome.unconfirmedHangs += 1
                    shrunk[first.failure.signature] = -1
                    try? FileManager.default.removeItem(at: foundDirectory.appendingPathComponent(finding.name + ".yaml"))
                    continue
                }
                finding.struck = outcome.struckBySignature[first.failure.signature]
                // Shrunk, two failures may prove one cause (a clock jump that played no part
                // was all that told them apart): one finding, their schedules counted together.
                if let same = outcome.findings.firstIndex(where: { $0.failure == finding.failure }) {
                    shrunk[first.failure.signature] = same
                    try? FileManager.default.removeItem(at: foundDirectory.appendingPathComponent(finding.name + ".yaml"))
                    continue
                }
                shrunk[first.failure.signature] = outcome.findings.count
                refined.append(found.failure)
                origins.append(first)
                outcome.findings.append(finding)
                outcome.cases.append(found.report)
                progress(.found(finding))
            }
            let exhausted = hunt.schedules.map { hunt.index(ofOffset: nextOffset) >= $0 } ?? false
            guard ran, !exhausted, aim == nil || firsts.isEmpty, !RunInterruption.requested,
                  plan.mayStartRound(at: clock.now), plan.mayRunSchedules(at: clock.now, toShrink: []) else { break }
        }
        // Time left over: the findings cut short are shrunk on from where they stopped.
        for index in outcome.findings.indices where outcome.findings[index].cutShort {
            guard let end = plan.end, clock.now + .seconds(2) < end, !RunInterruption.requested else { break }
            let waiting = outcome.findings[index...].filter(\.cutShort).count
            let resumeStart = clock.now
            guard let resumed = try hunt.resume(outcome.findings[index], failure: refined[index], first: origins[index],
                                                deadline: clock.now + (end - clock.now) / max(1, waiting), end: end) else { continue }
            outcome.shrinkRuns += resumed.runs
            var finding = resumed.finding
            finding.shrinkRuns += outcome.findings[index].shrinkRuns
            finding.shrinkMs = outcome.findings[index].shrinkMs + (clock.now - resumeStart).wholeMilliseconds
            outcome.findings[index] = finding
            outcome.cases[index] = resumed.report
            progress(.found(finding))
        }
        // Every schedule a finding's causes showed in, over all rounds.
        for index in outcome.findings.indices {
            let signatures = shrunk.filter { $0.value == index }.map(\.key)
            outcome.findings[index].failingSchedules = max(1, signatures.reduce(0) { $0 + (outcome.failuresBySignature[$1] ?? 0) })
            // The workload's actions by their own names: what the user's code calls them.
            let named: [String: String] = [Workload.actionPrefix + "write": workload.write, Workload.actionPrefix + "read": workload.read]
            let struck = Set(signatures.flatMap { outcome.struckBySignature[$0] ?? [] }.map { named[$0] ?? $0 })
            outcome.findings[index].struck = struck.isEmpty ? nil : struck.sorted()
        }
        if RunInterruption.requested { outcome.interrupted = true }
        outcome.durationMs = (clock.now - start).wholeMilliseconds
        return outcome
    }

    /// The first schedule to fail one distinct way, and what shrinking it may cost.
    struct Failing {
        var failure: HuntOracle.Failure
        var schedule: HuntSchedule
        var report: CaseReport

        var cost: HuntBudget.ShrinkCost { HuntBudget.ShrinkCost(steps: schedule.steps.count, caseMs: report.durationMs) }
    }

    /// A hang known in seconds: within a hunt and its shrinking, a launch or action that
    /// takes ten times as long as the slowest of the plain run, and never less than 6 s,
    /// is a hang and ended at once — not at the case's 20 s. (A slow answer below that is
    /// still judged by `recovered-within`.) A hang is confirmed at the full timeout.
    static func stepBound(slowestPlainMs: Int) -> StepBound {
        let bound = max(Duration.seconds(6), .milliseconds(slowestPlainMs * 10))
        return StepBound(launch: bound, action: bound)
    }

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
