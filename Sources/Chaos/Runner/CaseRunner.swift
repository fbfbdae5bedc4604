import Foundation
import ChaosTarget

/// Runs one scenario as one case, a pipeline: set up the seams of its faults
/// (``CaseSeams``), start the app inside them (``CaseApp`` over ``AppProcess``, which
/// publishes what the app tells to the case's ``CaseLog`` and seams), carry out each
/// step, gather the final evidence (``FinalEvidence``), measure what each fault did
/// (``FaultLedger``) and judge (``CaseJudgement``).
///
/// Every wait is bounded by the case deadline (`timeout:`). A hung worker is killed
/// with its whole process group; the scratch directory is removed unless `--keep`.
package final class CaseRunner {
    let scenario: Scenario
    let options: RunOptions
    let plan: CasePlan
    let seed: UInt64
    let clock: CaseClock
    var scratch: URL
    let log = CaseLog()
    let ledger = FaultLedger()
    let seams: CaseSeams
    /// Set up in ``run()``, once the scratch folder and the seams exist.
    var app: CaseApp!
    /// What a clean launch of the target makes by itself: decided here, before the case,
    /// and learned (once per command) only if the final evidence asks.
    let cleanLaunch: (() -> OwnRecords)?
    /// What each fault did, measured once the app is down at the end of the case.
    var measuredFaults: [FaultActivity]?
    /// What the case's workers start, found and ended when they are done.
    var leftovers: ProcessLeftovers?
    /// The processes the app left running, named once the case is over.
    var leftBehind: [String] = []
    /// The faults armed and not cleared, by id (their kind): a read is asked again while
    /// the app recovers only once none stands.
    var standing: [String: String] = [:]

    /// The case's folders, as the app and the controller reach them.
    var files: CaseFiles {
        CaseFiles(scratch: scratch, hostDataDirectory: seams.hostView(of: CaseFiles.dataDirectory(in: scratch)), declared: declaration.files)
    }

    package init(scenario: Scenario, options: RunOptions, plan: CasePlan = CasePlan()) {
        ControllerSignals.ignoreBrokenPipes()
        self.scenario = scenario.bound(to: options.target.declaration)
        (self.options, self.plan) = (options, plan)
        seed = options.seed ?? scenario.seed
        clock = CaseClock(timeout: scenario.timeout, slot: plan.slot)
        scratch = options.scratchRoot
        seams = CaseSeams(declaration: options.target.declaration)
        let question = CleanLaunch.Question(options: options, scenario: self.scenario, seed: seed)
        cleanLaunch = plan.launcher == nil ? options.target.cleanLaunch.map { learner in { learner.records(for: question) } } : nil
    }

    /// The report of a case Ctrl-C kept from starting.
    package func notStarted() -> CaseReport { report(verdict: .interrupted, error: "not started: the run was interrupted") }

    /// The report of a case that does not apply to the target (`skipped`, saying why).
    package func notApplicable(_ reason: String) -> CaseReport { report(verdict: .skipped, error: "does not apply: \(reason)") }

    /// Where this case's files are (meaningful with `--keep`).
    package var scratchDirectory: URL { scratch }

    package func run() -> CaseReport {
        do {
            scratch = try ScratchFolder.make(in: options.scratchRoot, for: scenario.name)
            leftovers = ProcessLeftovers(mark: scratch.lastPathComponent)
            try FileManager.default.createDirectory(at: files.dataDirectory, withIntermediateDirectories: true)
        } catch {
            return report(verdict: .errored, error: "cannot create a scratch directory: \(error)")
        }
        defer { cleanUp() }
        do {
            try seams.setUp(for: scenario, in: SeamSetting(scratch: scratch, dataDirectory: files.dataDirectory, deadline: clock.deadline,
                                                           mark: scratch.lastPathComponent, remotes: plan.remotePool))
        } catch {
            return report(verdict: error.verdict.0, error: error.verdict.1)
        }
        do { try plan.start?.lay(in: files.hostDataDirectory, log: log) } catch {
            return report(verdict: .errored, error: "cannot start from the crash image: \(error)")
        }
        app = CaseApp(process: makeAppProcess(), log: log, clock: clock)
        log.evidence.logsNotRead = declaration.whyLogsAreNotRead
        return finish(after: runSteps())
    }

    /// The app's process: workers from the run's command, inside the case's seams, whose
    /// news the case's log and seams hear as it comes.
    func makeAppProcess() -> AppProcess {
        let context = TargetContext(dataDirectory: files.dataDirectory, variant: options.variant, options: targetOptions, seed: seed,
                                    remotes: seams.network.addresses)
        let launcher: any WorkerLauncher = if let own = plan.launcher { own } else { seams.launcher(for: options.worker, plan: plan, leftovers: leftovers) }
        let listeners = seams.listeners(log: log, ledger: ledger, clock: clock)
        return AppProcess(launcher: launcher, context: context, clock: clock, scratch: scratch, listeners: listeners, stepBound: plan.stepBound)
    }

    /// The target options of every launch: the scenario's, then the run's overrides.
    var targetOptions: [String: String] { scenario.targetOptions(overriddenBy: options.optionOverrides) }

    /// Runs the steps in order until the last, or until one ends the case.
    func runSteps() -> CaseEnd? {
        var number = 0
        for step in scenario.steps {
            if step.origin == .scenario { number += 1 }
            let shown = step.origin == .scenario ? number : 0
            let id = step.origin == .scenario ? "step-\(number)" : TrialPlan.faultID
            if RunInterruption.requested { return .interrupted }
            if clock.isPastDeadline {
                let timeout = ScenarioDuration.format(scenario.timeout)
                log.evidence.abnormalEnd = .caseTimedOut(timeout: timeout)
                log.record(step, number: shown, since: clock.now, clock: clock,
                           StepResult(.timedOut, "the case reached its timeout (\(timeout)) before this step"))
                return .timedOut
            }
            let started = clock.now
            var result: StepResult
            var ending: CaseEnd?
            (app.currentStep, log.stepNumber) = (id, shown)
            defer { (app.currentStep, log.stepNumber) = (nil, 0) }
            do {
                result = try perform(step, id: id)
            } catch {
                ending = error
                result = StepResult(error.stepOutcome, error.stepDetail(abnormalEnd: log.evidence.abnormalEnd?.sentence))
            }
            // What fired on the seams' side (the proxy's picks) since the last step.
            for seam in seams.all { seam.gather(in: context) }
            if log.evidence.trap != nil, result.outcome == .ok { result.outcome = .trapped }
            log.record(step, number: shown, since: started, clock: clock, result)
            if let ending { return ending }
        }
        return nil
    }

    /// The evidence after the last step, then the verdict.
    func finish(after ending: CaseEnd?) -> CaseReport {
        var ending = ending
        let evidence = FinalEvidence(scenario: scenario, app: app, log: log, files: files, declaration: declaration, lab: seams.network.lab,
                                     cleanStart: { [self] () throws(CaseEnd) in _ = try launch(clean: true) }, cleanLaunch: cleanLaunch)
        switch ending {
        case nil: do { try evidence.gather() } catch { ending = error }
        case .interrupted?, .harness?, .notApplicable?: break
        // The app trapped or hung: what the remote saw is still the lab's to tell.
        default: evidence.gatherLab()
        }
        // The last worker goes: stopped gracefully after a complete case, killed otherwise.
        if app.isRunning, ending != nil { _ = app.kill() } else if app.isRunning { _ = try? app.stop() }
        leftovers?.record(app.process.leftBehind)
        leftBehind = leftovers?.endAll() ?? app.process.leftBehind
        measuredFaults = seams.effects(of: ledger)
        if ending == nil, scenario.needsIntegrity { evidence.checkIntegrity() }
        let judgement = CaseJudgement.judge(ending: ending, results: { [log, scenario] in log.results(of: scenario) }, needsFinalSnapshot: scenario.needsFinalSnapshot,
                                            evidence: log.evidence, faults: measuredFaults ?? [])
        return report(verdict: judgement.verdict, expectations: judgement.expectations, error: judgement.error)
    }

    func cleanUp() {
        app?.process.kill()
        leftovers?.endAll()
        seams.tearDown()
        if !options.keepScratch { ScratchFolder.remove(scratch) }
    }
}
