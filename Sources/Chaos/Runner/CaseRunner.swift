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
        CaseFiles(scratch: scratch, hostDataDirectory: seams.disk.hostView(of: CaseFiles.dataDirectory(in: scratch)), declared: declaration.files)
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
        app = CaseApp(process: makeAppProcess(), log: log, clock: clock, sharesAContainer: !declaration.sharedContainer.isEmpty)
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
            log.injections += app.process.takeSuspensions()
            if log.evidence.trap != nil, result.outcome == .ok { result.outcome = .trapped }
            log.record(step, number: shown, since: started, clock: clock, result)
            if let ending { return ending }
        }
        return nil
    }

    /// The evidence after the last step, then the verdict.
    func finish(after ending: CaseEnd?) -> CaseReport {
        var ending = ending
        if ending == nil { do { try app.endSuspension() } catch { ending = error } }
        let evidence = FinalEvidence(scenario: scenario, app: app, log: log, files: files, declaration: declaration, lab: seams.network.lab,
                                     cleanStart: { [self] () throws(CaseEnd) in _ = try launch(clean: true) }, cleanLaunch: cleanLaunch)
        switch ending {
        case nil: do { try evidence.gather() } catch { ending = error }
        case .interrupted?, .harness?, .notApplicable?: break
        // The app trapped or hung: what the remote saw is still the lab's to tell.
        default: evidence.gatherLab()
        }
        // The last worker goes: stopped gracefully after a complete case, killed otherwise.
        app.endOfCase(complete: ending == nil)
        leftovers?.record(app.process.leftBehind)
        leftBehind = leftovers?.endAll() ?? app.process.leftBehind
        measuredFaults = seams.effects(of: ledger)
        if ending == nil, scenario.needsIntegrity { evidence.checkIntegrity() }
        if ending == nil { evidence.lookForDamagedBytes() }
        let judgement = CaseJudgement.judge(ending: ending, results: { [log, scenario] in log.results(of: scenario) }, needsFinalSnapshot: scenario.needsFinalSnapshot,
                                            evidence: log.evidence, faults: measuredFaults ?? [])
        return report(verdict: judgement.verdict, expectations: judgement.expectations, error: judgement.error)
    }

    func cleanUp() {
        app?.killAll()
        leftovers?.endAll()
        seams.tearDown()
        if !options.keepScratch { ScratchFolder.remove(scratch) }
    }
}

/// Carrying out one step: the app's own steps go to the app (``CaseApp``), a launch
/// arms the new worker through every seam, faults and clears go to the seams.
extension CaseRunner {
    /// One step. Throws when the step ends the case.
    func perform(_ step: ScenarioStep, id: String) throws(CaseEnd) -> StepResult {
        if seams.power.isOut, step.action.touchesApp {
            return StepResult(.skipped, "\(app.lastEnd.endWords): the app is down until the next launch")
        }
        switch step.action {
        case .launch: return try launch()
        case .stop: return try app.stop()
        case .kill: return app.kill()
        case let .perform(action):
            return try app.perform(action, label: "\(id.replacingOccurrences(of: "-", with: " ")): \(step.label)",
                                   recoveryBound: recoveryPollBound(for:))
        case let .checkpoint(name):
            guard let snapshot = try app.snapshot(purpose: "checkpoint \(name)") else {
                return StepResult(seams.power.isOut ? .powerLost : .error, log.evidence.evidenceGap?.text)
            }
            log.evidence.checkpoints[name] = snapshot
            return .ok("\(snapshot.values.reduce(0) { $0 + $1.count }) records")
        case let .fault(fault): return try inject(fault, id: id)
        case let .clear(scope): return try clear(scope)
        case let .wait(duration):
            clock.wait(duration)
            return .ok()
        case let .suspend(suspend): return try app.suspend(suspend, declaration: declaration, dataDirectory: files.dataDirectory)
        case .resume: return try app.resume()
        }
    }

    /// `clean`: the controller's own launch to read evidence, with no fault armed.
    func launch(clean: Bool = false) throws(CaseEnd) -> StepResult {
        var before = ""
        if app.isRunning {
            if !clean, let never = seams.power.cutNeverCame { throw .harness(never) }
            // A launch while running is a restart: stop gracefully first. A power loss
            // may cut the stop; the launch goes on when the power is back.
            if try app.stop().outcome == .powerLost { before = "\(app.lastEnd.endWords) while the app was stopping; then " }
        }
        try app.start()
        if plan.countPoints && !clean { _ = try app.ask(WorkerRequest(.countPoints)) }
        let armed = try seams.launched(clean: clean, in: context)
        // A run launched while a fault stood outside the app (its network cut, its clock
        // moved) holds more than what it read from the disk, as a run with faults armed in it.
        log.startRun(armed: armed || (!clean && !standing.isEmpty))
        let launchStart = clock.now
        log.evidence.health = nil
        log.startRecovery(at: launchStart, after: "the launch")
        guard let reply = try app.ask(WorkerRequest(.launch)) else {
            return StepResult(.powerLost, "\(app.lastEnd.endWords) during the launch")
        }
        let took = (clock.now - launchStart).wholeMilliseconds
        guard case let .value(.map(health)) = reply.answer else { return .ok(before + "worker ready in \(app.process.readyMs) ms") }
        log.launched(health: health)
        let mode = health["mode"]
        var result = StepResult.ok(before + "mode \(mode?.stringValue ?? "?") in \(took) ms (worker ready in \(app.process.readyMs) ms)")
        result.mode = mode.map { $0.stringValue ?? $0.description }
        return result
    }
}

/// Fault steps and clears, each carried out by the seam of its family (``CaseSeams``),
/// in the case's parts (``SeamContext``).
extension CaseRunner {
    /// What the seams work with: the case's parts, not the runner.
    var context: SeamContext {
        SeamContext(app: app, ledger: ledger, clock: clock, files: files, declaration: declaration, log: log)
    }

    func inject(_ step: FaultStep, id: String) throws(CaseEnd) -> StepResult {
        guard let seam = seams.seam(for: step.fault) else { throw .harness("fault '\(step.fault.kind)' has no seam in this runner") }
        ledger.note(step, id: id, step: log.stepNumber > 0 ? log.stepNumber : nil)
        // Damage done to a file is done, a cut is over once it came: nothing stands.
        if step.fault.stands { standing[id] = step.fault.kind }
        return try seam.inject(step, id: id, seed: SplitMix64.subseed(seed, id), in: context)
    }

    func clear(_ scope: ClearScope) throws(CaseEnd) -> StepResult {
        var names: [String] = []
        // A disarm may be the moment of a cut waiting in the running app: then the seams
        // after it have no app to disarm in. A clear while the app is down disarms in
        // every seam, for the next launch: a fault cleared after a cut must not fire again
        // at the next launch.
        let wasRunning = app.isRunning
        for seam in seams.all {
            names += try seam.clear(scope, in: context)
            if wasRunning && !app.isRunning { return StepResult(.powerLost, app.lastEnd.endWords) }
        }
        standing = standing.filter { id, _ in !ledger.scope(scope, covers: id) }
        if !names.isEmpty { log.startRecovery(at: clock.now, after: "the clear") }
        return .ok(names.isEmpty ? "nothing armed" : "disarmed " + names.joined(separator: ", "))
    }

    /// The bound to keep asking a failed read `name` for: the scenario's
    /// `recovered-within`, while a recovery window is open and no fault stands (nor a
    /// power cut waits); nil otherwise — a read that fails under a standing fault is the
    /// fault's doing, asked once.
    func recoveryPollBound(for name: String) -> Duration? {
        guard log.recoverySince != nil, standing.isEmpty, !seams.power.cutWaits,
              name == declaration.workload?.read || app.readActions.contains(name), let bound = scenario.recoveryBound else { return nil }
        return plan.recoveryPollCap.map { min(bound, $0) } ?? bound
    }

    var declaration: TargetDeclaration { options.target.declaration }
}

/// The case's report: what its log, ledger and app say, and the command that reproduces it.
extension CaseRunner {
    func report(verdict: Verdict, expectations: [ExpectationResult] = [], error: String? = nil) -> CaseReport {
        var report = CaseReport(
            scenario: scenario.name, summary: scenario.summary, system: scenario.system,
            scenarioFile: scenario.origin.reportedFile(name: scenario.name), scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: seed, variant: options.variant, verdict: verdict, durationMs: clock.elapsedMs,
            recoveryMs: log.evidence.recoveryMs, steps: log.steps, injections: log.injections, expectations: expectations,
            trap: log.evidence.trap, reproduce: reproduceCommand, error: error, workerLaunches: app?.process.launches ?? 0)
        report.recoveryStartMs = log.evidence.recoveryMs == nil ? nil : log.recoveryStartMs
        report.options = targetOptions
        report.faults = measuredFaults ?? seams.effects(of: ledger)
        report.leftBehind = leftBehind.isEmpty ? nil : leftBehind
        (report.logs, report.logsDropped) = (log.evidence.logs.isEmpty ? nil : log.evidence.logs, log.evidence.logsDropped == 0 ? nil : log.evidence.logsDropped)
        report.pointsReached = log.pointsHit.isEmpty ? nil : log.pointsHit.sorted()
        return report
    }

    /// The command line that reproduces this case: `chaos run SUBJECT` (a case of the
    /// storage catalog: `chaos check --only NAME`), its seed, variant, options and target.
    var reproduceCommand: String {
        let head = scenario.origin == .storageCatalog ? ["chaos", "check", "--only", scenario.name]
            : ["chaos", "run", ScenarioLoader.subject(of: scenario)]
        return (head + ["--seed", String(seed), "--variant", options.variant] + options.reproduceExtras)
            .map(ShellWords.quoted).joined(separator: " ")
    }
}
