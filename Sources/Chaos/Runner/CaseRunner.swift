import Foundation
import ChaosTarget

/// Runs one scenario as one case: the step loop. It drives the steps against the app
/// (``AppProcess``), hands each fault step to the seam of its family (``CaseSeams``),
/// which sets up what the case needs and records what each fault did (``FaultLedger``),
/// gathers the evidence (``CaseLog``) and judges the expectations.
///
/// Every wait is bounded by the case deadline (`timeout:`). A hung worker is killed
/// with its whole process group; the scratch directory is removed unless `--keep`.
package final class CaseRunner {
    let scenario: Scenario
    let options: RunOptions
    let seed: UInt64
    let clock: CaseClock
    var scratch: URL
    let log = CaseLog()
    let ledger = FaultLedger()
    let seams: CaseSeams
    /// Set up in ``run()``, once the scratch folder and the seams exist.
    var app: AppProcess!
    /// What each fault did, measured once the app is down at the end of the case.
    var measuredFaults: [FaultActivity]?
    /// What the case's workers start, found and ended when they are done (made with the
    /// scratch folder, whose name is the case's mark).
    var leftovers: ProcessLeftovers?
    /// The processes the app left running, named once the case is over.
    var leftBehind: [String] = []
    /// The step being carried out (`step-7`), nil once the steps are done.
    var currentStep: String?
    /// The faults armed and not cleared, by id (their kind): a read is asked again while
    /// the app recovers only once none stands.
    var standing: [String: String] = [:]
    /// The actions that answered as reads (`.read(value)`): what recovery is measured to.
    var readActions: Set<String> = []

    /// The app's data folder, as the app sees it.
    var dataDirectory: URL { scratch.appendingPathComponent("data") }
    /// The same folder as the controller reaches it (through the tmpfs namespace, if any).
    var hostDataDirectory: URL { seams.hostView(of: dataDirectory) }

    package init(scenario: Scenario, options: RunOptions) {
        self.scenario = scenario.bound(to: options.target.declaration)
        self.options = options
        seed = options.seed ?? scenario.seed
        clock = CaseClock(timeout: scenario.timeout)
        scratch = options.scratchRoot
        seams = CaseSeams(declaration: options.target.declaration)
    }

    /// The report of a case Ctrl-C kept from starting.
    package func notStarted() -> CaseReport {
        report(verdict: .interrupted, error: "not started: the run was interrupted")
    }

    /// The report of a case that does not apply to the target (`skipped`, saying why).
    package func notApplicable(_ reason: String) -> CaseReport {
        report(verdict: .skipped, error: "does not apply: \(reason)")
    }

    /// Where this case's files are (meaningful with `--keep`).
    package var scratchDirectory: URL { scratch }

    package func run() -> CaseReport {
        do {
            scratch = try makeScratch()
            leftovers = ProcessLeftovers(mark: scratch.lastPathComponent)
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            return report(verdict: .errored, error: "cannot create a scratch directory: \(error)")
        }
        defer { cleanUp() }
        do {
            try seams.setUp(for: scenario, in: SeamSetting(scratch: scratch, dataDirectory: dataDirectory, deadline: clock.deadline,
                                                           mark: scratch.lastPathComponent))
        } catch {
            switch error {
            case let .skipped(reason): return report(verdict: .skipped, error: reason)
            case let .harness(reason): return report(verdict: .errored, error: reason)
            }
        }
        app = makeApp()
        log.evidence.logsNotRead = declaration.whyLogsAreNotRead
        let ending = runSteps()
        return finish(after: ending)
    }

    /// The app of this case: workers from the run's command, inside the case's seams.
    func makeApp() -> AppProcess {
        let launcher: any WorkerLauncher = if let launcher = options.launcher { launcher } else {
            ProcessWorkerLauncher(command: seams.wrap(options.worker),
                                  willStart: { [seams] in try seams.workerStarting() },
                                  didStart: { [seams] pid in seams.workerStarted(pid: pid) },
                                  // Under libfaketime a worker is its own process: a fork server
                                  // started for one case's clock would serve only that case, and
                                  // leave libfaketime's /dev/shm objects under its own pid.
                                  forkServers: seams.clock.faketime == nil ? options.forkServers : nil, leftovers: leftovers)
        }
        let context = TargetContext(dataDirectory: dataDirectory, variant: options.variant, options: targetOptions, seed: seed,
                                    remotes: seams.network.addresses)
        // The case's log and its seams hear what the app's process tells, as it comes.
        let listeners = AppProcess.Listeners(
            heard: { [log, ledger, clock, seams] news in
                let atMs = clock.elapsedMs
                log.heard(news, atMs: atMs)
                log.injections += seams.heard(news, atMs: atMs, ledger: ledger)
            },
            cutWaiting: { [power = seams.power] in power.pending })
        return AppProcess(launcher: launcher, context: context, clock: clock, scratch: scratch, listeners: listeners, stepBound: options.stepBound)
    }

    /// The target options of every launch: the scenario's, then the run's overrides.
    var targetOptions: [String: String] {
        scenario.options.merging(options.optionOverrides) { _, new in new }
    }

    /// Runs the steps in order until the last, or until one ends the case.
    func runSteps() -> CaseEnd? {
        var number = 0
        for step in scenario.steps {
            if step.origin == .scenario { number += 1 }
            let id = step.origin == .scenario ? "step-\(number)" : TrialPlan.faultID
            if RunInterruption.requested { return .interrupted }
            if clock.isPastDeadline {
                let timeout = ScenarioDuration.format(scenario.timeout)
                log.evidence.abnormalEnd = "the case timed out after \(timeout)"
                record(step, number: number, since: clock.now,
                       StepResult(.timedOut, "the case reached its timeout (\(timeout)) before this step"))
                return .timedOut
            }
            let started = clock.now
            var result: StepResult
            var ending: CaseEnd?
            currentStep = id
            log.stepNumber = step.origin == .scenario ? number : 0
            defer { currentStep = nil; log.stepNumber = 0 }
            do {
                result = try perform(step, id: id)
            } catch {
                ending = error
                result = StepResult(error.stepOutcome, detail(of: error))
            }
            gatherFirings()
            if log.evidence.trap != nil, result.outcome == .ok { result.outcome = .trapped }
            record(step, number: step.origin == .scenario ? number : 0, since: started, result)
            if let ending { return ending }
        }
        return nil
    }

    func record(_ step: ScenarioStep, number: Int, since started: ContinuousClock.Instant, _ result: StepResult) {
        log.steps.append(StepRecord(index: number, label: step.label, startMs: clock.ms(at: started),
                                    durationMs: (clock.now - started).wholeMilliseconds,
                                    outcome: result.outcome.rawValue, detail: result.detail))
    }

    /// The step detail of a case's end.
    func detail(of ending: CaseEnd) -> String? {
        switch ending {
        case let .harness(reason), let .notApplicable(reason): reason
        case .interrupted: "interrupted"
        case .trapped, .appFailed, .timedOut: log.evidence.abnormalEnd
        }
    }

    /// The evidence after the last step, then the verdict.
    func finish(after ending: CaseEnd?) -> CaseReport {
        var ending = ending
        switch ending {
        case nil:
            do { try gatherFinalEvidence() } catch { ending = error }
        case .interrupted?, .harness?, .notApplicable?:
            break
        default:
            // The app trapped or hung: what the remote saw is still the lab's to tell.
            try? gatherLabEvidence()
        }
        shutDown(abruptly: ending != nil)
        endLeftovers()
        measuredFaults = seams.effects(of: ledger)
        if ending == nil, scenario.needsIntegrity { checkIntegrity() }
        let judgement = CaseJudgement.judge(ending: ending, results: expectationResults, needsFinalSnapshot: scenario.needsFinalSnapshot,
                                            evidence: log.evidence, faults: measuredFaults ?? [])
        return report(verdict: judgement.verdict, expectations: judgement.expectations, error: judgement.error)
    }

    // MARK: - Report

    func report(verdict: Verdict, expectations: [ExpectationResult] = [], error: String? = nil) -> CaseReport {
        var report = CaseReport(
            scenario: scenario.name, summary: scenario.summary, system: scenario.system,
            scenarioFile: scenario.origin.reportedFile(name: scenario.name), scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: seed, variant: options.variant, verdict: verdict, durationMs: clock.elapsedMs,
            recoveryMs: log.evidence.recoveryMs, steps: log.steps, injections: log.injections, expectations: expectations,
            trap: log.evidence.trap,
            reproduce: reproduceCommand,
            error: error, workerLaunches: app?.launches ?? 0)
        report.recoveryStartMs = log.evidence.recoveryMs == nil ? nil : log.recoveryStartMs
        report.options = targetOptions
        report.faults = measuredFaults ?? seams.effects(of: ledger)
        report.leftBehind = leftBehind.isEmpty ? nil : leftBehind
        report.logs = log.evidence.logs.isEmpty ? nil : log.evidence.logs
        report.logsDropped = log.evidence.logsDropped == 0 ? nil : log.evidence.logsDropped
        return report
    }

    /// Ends what the app left running (no worker of the case runs any more) and keeps
    /// its names for the report.
    func endLeftovers() {
        leftovers?.record(app?.leftBehind ?? [])
        leftBehind = leftovers?.endAll() ?? app?.leftBehind ?? []
    }

    /// The command line that reproduces this case: `chaos run SUBJECT` (or the
    /// catalog's `chaos check --only NAME`), its seed, variant, options and target.
    var reproduceCommand: String {
        let head = options.reproducePrefix.map { $0 + [scenario.name] } ?? ["chaos", "run", ScenarioLoader.subject(of: scenario)]
        return (head + ["--seed", String(seed), "--variant", options.variant] + options.reproduceExtras)
            .map(ShellWords.quoted).joined(separator: " ")
    }

    func makeScratch() throws -> URL {
        try ScratchFolder.make(in: options.scratchRoot, for: scenario.name)
    }

    func cleanUp() {
        app?.kill()
        leftovers?.endAll()
        seams.tearDown()
        guard !options.keepScratch else { return }
        // Permission bits may have been cleared by a read-only fault.
        if let enumerator = FileManager.default.enumerator(atPath: scratch.path) {
            for case let path as String in enumerator { _ = chmod(scratch.appendingPathComponent(path).path, 0o755) }
        }
        try? FileManager.default.removeItem(at: scratch)
    }
}
