import ChaosTarget

/// What a case records as it runs: its steps, the injections, the evidence the
/// expectations judge, and the measure of recovery. One per case, written by the
/// step loop and by what the app's process publishes (``heard(_:atMs:)``).
final class CaseLog {
    var steps: [StepRecord] = []
    var injections: [InjectionRecord] = []
    var evidence = CaseEvidence()
    /// Failed `expect-error` marks of steps, judged with the expectations.
    var stepFailures: [ExpectationResult] = []
    /// Where recovery is measured from (a launch, a clear), until the first good read.
    var recoverySince: (instant: ContinuousClock.Instant, what: String)?
    /// When the measured recovery window started, since the case's start.
    var recoveryStartMs: Int?
    /// The running app's writes since it started (records acknowledged, attempted or
    /// removed, and any action but a successful read), and whether a fault was armed in
    /// it: a run with neither holds only what it read from the disk, so its data needs no
    /// restart to be judged.
    var writesInRun = 0
    /// Files taken away for a while (`file-unavailable`) and not back yet. What the app
    /// acknowledges meanwhile is not judged: it saves into files that the ones coming
    /// back displace, and no app can tell a store not there yet from none — such a
    /// record counts as attempted (it may be there or not).
    var filesAway = 0
    var faultsInRun = false
    /// The fault points the app's workers hit, when the run counts them (``CasePlan/countPoints``).
    var pointsHit: Set<String> = []
    /// The scenario step being run (its number), for the log records that come during it.
    var stepNumber = 0
    /// The writes the app told that carry the tracked writes and syncs counted when each
    /// was told (a run that takes crash images, ``CrashImages``), in order.
    var stamped: [WorkerEvent] = []
    /// The tracked writes and syncs the last reply counted (a run that tracks writes).
    var tracked: TrackedIO?
    /// What each action of the case spanned in tracked writes and syncs, from the reply
    /// before it to its own: a cut inside one leaves it unresolved (``CrashImages``).
    var actionSpans: [(from: TrackedIO, to: TrackedIO)] = []
    /// What the seams saw the app do since the last step was recorded (``SeamCall``).
    var callsInStep: [SeamCall] = []
    /// The kinds of the errors the app answered since the last step was recorded.
    var appErrorsInStep: [String] = []
    /// The most error kinds one step keeps: a loop of failing saves is one kind or two.
    static let appErrorsKept = 4

    /// A step done: `number` is its number in the scenario (0 for a trial's own step).
    func record(_ step: ScenarioStep, number: Int, since started: ContinuousClock.Instant, clock: CaseClock, _ result: StepResult) {
        steps.append(StepRecord(index: number, label: step.label, startMs: clock.ms(at: started),
                                durationMs: (clock.now - started).wholeMilliseconds, outcome: result.outcome, detail: result.detail,
                                calls: callsInStep.isEmpty ? nil : callsInStep, mode: result.mode,
                                appErrors: appErrorsInStep.isEmpty ? nil : appErrorsInStep))
        callsInStep = []
        appErrorsInStep = []
    }

    /// An action the app failed: the kind of its error, kept once (``StepRecord/appErrors``).
    func failed(_ answer: WorkerReply.Answer) {
        guard case let .actionFailed(userMessage, error, _) = answer else { return }
        let kind = TrapErrorKind.of(error ?? userMessage ?? "")
        if appErrorsInStep.count < Self.appErrorsKept, !appErrorsInStep.contains(kind) { appErrorsInStep.append(kind) }
    }

    /// The health a launch answered: what it told the user at launch (a warning or an
    /// error) excuses the writes acknowledged before it.
    func launched(health: [String: ScenarioValue]) {
        evidence.health = health
        // The first launch after a damage with no fault armed in it says whether the app
        // could read the file as it was (one with a fault standing may answer for the fault).
        let mode = health["mode"]?.stringValue ?? Health.Mode.persistent.rawValue
        let severity = health["severity"]?.stringValue ?? Severity.none.rawValue
        for index in evidence.damages.indices where evidence.damages[index].noticed == nil && !faultsInRun {
            evidence.damages[index].noticed = mode != Health.Mode.persistent.rawValue || severity != Severity.none.rawValue
            evidence.damages[index].toldGone = mode == Health.Mode.discarded.rawValue
        }
        if let message = health["message"]?.stringValue, !message.isEmpty,
           ["warning", "error"].contains(health["severity"]?.stringValue ?? "none") {
            evidence.toldAtLaunch.formUnion(evidence.acknowledged)
            evidence.launchMessage = message
        }
    }

    /// `scenario`'s expectations judged on this evidence, and the steps' failed marks.
    func results(of scenario: Scenario) -> [ExpectationResult] {
        scenario.checkedExpectations.map { ExpectationEvaluator.evaluate($0.kind, evidence: evidence) } + stepFailures
    }

    /// A new run of the app begins.
    func startRun(armed: Bool) {
        writesInRun = 0
        faultsInRun = armed
    }

    /// The running app's data is the disk's as a launch read it: nothing written, no fault.
    var runReadsOnlyTheDisk: Bool { writesInRun == 0 && !faultsInRun }

    /// A recovery window opens: recovery is measured from `instant`.
    func startRecovery(at instant: ContinuousClock.Instant, after what: String) {
        recoverySince = (instant, what)
        evidence.recoveryMs = nil
        evidence.recoveryMissing = nil
    }

    /// A successful read at `instant` closes an open recovery window.
    func read(at instant: ContinuousClock.Instant, clock: CaseClock) {
        guard let since = recoverySince else { return }
        evidence.recoveryMs = (instant - since.instant).wholeMilliseconds
        recoveryStartMs = clock.ms(at: since.instant)
        recoverySince = nil
    }

    /// What the app's process told that the case keeps as evidence: its events and
    /// replies.
    func heard(_ news: AppNews, atMs: Int) {
        switch news {
        case let .event(event): record(event, atMs: atMs)
        case let .reply(reply): record(reply.status)
        case .ready, .exited: break
        }
    }

    /// Writes the app announced as they happened (ack, attempt, remove), and the records
    /// it logged (kept up to ``LogEntry/keptPerCase``, the rest counted).
    func record(_ event: WorkerEvent, atMs: Int) {
        if let record = event.log {
            if evidence.logs.count < LogEntry.keptPerCase {
                evidence.logs.append(LogEntry(record, atMs: atMs, step: stepNumber))
            } else {
                evidence.logsDropped += 1
            }
            return
        }
        guard event.event != .suspending, let key = event.key else { return }
        if event.io != nil, event.event != .fired { stamped.append(event) }
        if event.event != .fired { writesInRun += 1 }
        switch event.event {
        case .ack where filesAway > 0:
            evidence.attempted.insert(key)
            if evidence.acknowledgedValues[key] != nil { evidence.rewriting.insert(key) }
        case .ack:
            evidence.acknowledged.insert(key)
            evidence.attempted.insert(key)
            evidence.removed.remove(key)
            evidence.removing.remove(key)
            evidence.rewriting.remove(key)
            if let digest = event.digest.flatMap(RecordDigest.parse) {
                evidence.acknowledgedValues[key] = digest
            } else if !evidence.acknowledgedValues.isEmpty {
                evidence.acknowledgedValues[key] = nil
            }
        case .attempt:
            evidence.attempted.insert(key)
            if evidence.acknowledgedValues[key] != nil { evidence.rewriting.insert(key) }
        case .removing:
            evidence.removing.insert(key)
        case .remove:
            evidence.removed.insert(key)
            evidence.removing.remove(key)
            evidence.acknowledgedValues[key] = nil
        case .fired, .log, .suspending:
            break
        }
    }

    /// What a reply says beyond its answer (``WorkerStatus``): the store's settings, where
    /// the app's files were, the points hit, what the seams saw, the writes and syncs
    /// the worker tracked.
    func record(_ status: WorkerStatus) {
        if let settings = status.storeSettings { evidence.storeSettings = settings }
        if let reach = status.reach {
            for folder in reach.outside ?? [] where !evidence.filesElsewhere.contains(folder) { evidence.filesElsewhere.append(folder) }
            evidence.callsUnderDataFolder = reach.libcCalls + reach.vfsOpens
        }
        if let points = status.pointsHit { pointsHit.formUnion(points) }
        for call in status.calls ?? [] { SeamCall.add(call, to: &callsInStep) }
        if let tracked = status.tracked { self.tracked = tracked }
    }
}
