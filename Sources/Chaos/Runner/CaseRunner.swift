import Foundation

/// Runs one scenario as one case: drives the steps against worker processes, watches
/// for traps and hangs, gathers the evidence, and judges the expectations.
///
/// Every wait is bounded by the case deadline (`timeout:`). A hung worker is killed
/// with its whole process group; the scratch directory is removed unless `--keep`.
public final class CaseRunner {
    let scenario: Scenario
    let options: RunOptions
    let seed: UInt64
    let clock = ContinuousClock()

    private let start: ContinuousClock.Instant
    private let deadline: ContinuousClock.Instant
    private var scratch: URL
    /// The app's data folder, as the app sees it.
    private var dataDirectory: URL { scratch.appendingPathComponent("data") }
    /// The same folder as the controller reaches it (through the tmpfs namespace, if any).
    private var hostDataDirectory: URL { tmpfs?.hostView ?? dataDirectory }
    /// A real small disk under the data folder, for `disk-full` with `mechanism: tmpfs`.
    private var tmpfs: TmpfsDisk?
    private var tmpfsFilled = false
    private var workerCommand: WorkerCommand {
        let command = tmpfs?.wrap(options.worker) ?? options.worker
        return faketime?.wrap(command) ?? command  // clock case: libfaketime preloaded
    }
    private var needsTmpfs: Bool {
        scenario.steps.contains { step in
            if case let .fault(fault) = step.action, let diskFull = fault.fault.as(DiskFullFault.self) {
                return diskFull.mechanism == .tmpfs
            }
            return false
        }
    }
    /// 16 MiB: room for the app's store and backups, small enough to fill in a moment.
    static let tmpfsSizeBytes = 16 << 20
    // MARK: Clock — libfaketime in the workers of a case with clock faults (FaketimeClock).
    private var faketime: FaketimeClock?
    private var needsClock: Bool {
        scenario.steps.contains { if case let .fault(step) = $0.action { step.fault.family == .clock } else { false } }
    }
    private var worker: WorkerSession?
    private var files: [String: String]?
    private var workerLaunches = 0
    private var activeArmings: [(kind: String, arming: PointArming)] = []
    private var activeStorage: [(kind: String, rule: StorageFaultRule)] = []
    /// A deferred power loss armed in the running worker, and the step that armed it.
    private var pendingPowerLoss: (order: PowerLossOrder, step: Int)?
    /// The power went out: the app is down until the next launch.
    private var powerOut = false
    private var tracksWrites: Bool {
        options.sweepTrial?.powerLossOrder != nil
            || scenario.steps.contains { if case .powerLoss = $0.action { true } else { false } }
    }
    private var tornWrites: Bool {
        options.sweepTrial?.powerLossOrder?.mode == .torn
            || scenario.steps.contains { if case let .powerLoss(step) = $0.action { step.mode == .torn } else { false } }
    }
    /// The target options of every launch: the network lab's `remote-url`, the
    /// scenario's, then the run's overrides.
    private var targetOptions: [String: String] {
        (lab.map { ["remote-url": $0.remoteURL] } ?? [:])
            .merging(scenario.options) { _, new in new }
            .merging(options.optionOverrides) { _, new in new }
    }
    // MARK: Network lab — the remote and the fault proxy of family sync (NetworkLab).
    /// Started for a `family` scenario, one with network faults or `remote.*` probes;
    /// stopped in `cleanUp`, however the case ends.
    private var lab: NetworkLab?
    private var needsNetworkLab: Bool {
        scenario.system == "family"
            || scenario.steps.contains { if case let .fault(step) = $0.action { step.fault.family == .network } else { false } }
            || scenario.expectations.contains { if case let .state(probe, _) = $0.kind { probe.hasPrefix("remote.") } else { false } }
    }

    /// After `run()`: whether the sweep trial's fault fired.
    public private(set) var sweepFired = false
    /// After `run()`: tracked writes and syncs of the first launch (crash sweeps count them).
    public private(set) var firstLaunchIO: (writes: Int, syncs: Int)?
    private var evidence = CaseEvidence()
    private var steps: [StepRecord] = []
    private var injections: [InjectionRecord] = []
    private var stepFailures: [ExpectationResult] = []
    private var recoverySince: (instant: ContinuousClock.Instant, what: String)?
    private var recoveryStartMs: Int?
    private var harnessError: String?
    private var interrupted = false
    private var stopped = false  // the case ended early (trap, hang, error)

    public init(scenario: Scenario, options: RunOptions) {
        self.scenario = scenario
        self.options = options
        seed = options.seed ?? scenario.seed
        start = clock.now
        deadline = start + scenario.timeout
        scratch = options.scratchRoot
    }

    /// The command line that reproduces this case.
    public static func reproduceCommand(scenario: Scenario, seed: UInt64, variant: String, extras: [String]) -> String {
        let bundled = ScenarioLoader.bundledNames().contains(scenario.name)
            && scenario.location.file.contains("/catalog/")
        let subject = bundled ? scenario.name : scenario.location.file
        return (["chaos", "run", shellQuoted(subject), "--seed", String(seed), "--variant", variant] + extras.map(shellQuoted))
            .joined(separator: " ")
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    public func run() -> CaseReport {
        do {
            scratch = try makeScratch()
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            return report(verdict: .errored, error: "cannot create a scratch directory: \(error)")
        }
        defer { cleanUp() }
        if needsTmpfs {
            switch TmpfsDisk.mount(over: dataDirectory, sizeBytes: Self.tmpfsSizeBytes,
                                   stderrFile: scratch.appendingPathComponent("tmpfs.stderr"), deadline: deadline) {
            case let .success(disk):
                tmpfs = disk
            case let .failure(unavailable):
                return report(verdict: .skipped, error: "skipped: a real full disk needs a tmpfs in a private mount "
                    + "namespace (unshare --mount), which this host does not allow: \(unavailable.reason)")
            }
        }
        if needsClock {
            switch FaketimeClock.prepare(scratch: scratch) {
            case let .success(seam): faketime = seam
            case let .failure(.noLibfaketime(reason)):
                return report(verdict: .skipped, error: "skipped: \(ClockUnavailable.noLibfaketime(reason))")
            case let .failure(problem): return report(verdict: .errored, error: "\(problem)")
            }
        }
        if needsNetworkLab {
            do {
                lab = try NetworkLab.start()
            } catch {
                return report(verdict: .errored, error: "\(error)")
            }
        }

        for (index, step) in scenario.steps.enumerated() {
            if RunInterruption.requested { interrupted = true; break }
            if stopped { break }
            if clock.now >= deadline {
                fail(step: index, label: step.label, outcome: "timed-out",
                     detail: "the case reached its timeout (\(ScenarioDuration.format(scenario.timeout))) before this step")
                evidence.abnormalEnd = "the case timed out after \(ScenarioDuration.format(scenario.timeout))"
                stopped = true
                break
            }
            perform(step, index: index + 1)
        }
        if !stopped && !interrupted && harnessError == nil { gatherFinalEvidence() }
        shutDownWorker()
        if !stopped && !interrupted && harnessError == nil && needsIntegrity { checkIntegrity() }

        if interrupted { return report(verdict: .interrupted, error: "interrupted before the case finished") }
        if let harnessError { return report(verdict: .errored, error: harnessError) }
        let results = expectationResults()
        return report(verdict: results.allSatisfy(\.passed) ? .passed : .deviated, expectations: results)
    }

    // MARK: - Steps

    private func perform(_ step: ScenarioStep, index: Int) {
        let stepStart = clock.now
        var outcome = "ok"
        var detail: String?
        if powerOut, step.action.touchesApp {
            steps.append(StepRecord(index: index, label: step.label, startMs: ms(stepStart - start), durationMs: 0,
                                    outcome: "skipped", detail: "the power is out: the app is down until the next launch"))
            return
        }
        switch step.action {
        case let .powerLoss(powerLoss):
            (outcome, detail) = losePower(powerLoss, index: index)
        case .launch:
            (outcome, detail) = launch()
        case .stop:
            (outcome, detail) = stopWorker()
        case .kill:
            if let worker {
                _ = worker.kill()
                self.worker = nil
                pendingPowerLoss = nil
                detail = "worker killed (SIGKILL)"
            } else {
                detail = "the app was not running"
            }
        case let .perform(action):
            (outcome, detail) = perform(action, index: index, label: step.label)
        case let .checkpoint(name):
            if let snapshot = snapshot(purpose: "checkpoint \(name)") {
                evidence.checkpoints[name] = snapshot
                detail = "\(snapshot.values.reduce(0) { $0 + $1.count }) records"
            } else {
                outcome = stopped ? "trapped" : "error"
            }
        case let .fault(fault):
            (outcome, detail) = inject(fault, index: index)
        case let .clear(kind):
            (outcome, detail) = clear(kind)
        case let .wait(duration):
            let until = min(clock.now + duration, deadline)
            while clock.now < until && !RunInterruption.requested {
                Thread.sleep(forTimeInterval: min(0.05, Double((until - clock.now).components.attoseconds) / 1e18 + Double((until - clock.now).components.seconds)))
            }
        }
        recordNetworkFirings()
        if evidence.trap != nil && outcome == "ok" { outcome = "trapped" }
        steps.append(StepRecord(index: index, label: step.label, startMs: ms(stepStart - start),
                                durationMs: ms(clock.now - stepStart), outcome: outcome, detail: detail))
    }

    /// `clean`: the controller's own launch to read evidence, with no fault re-armed.
    private func launch(clean: Bool = false) -> (String, String?) {
        if worker != nil, let pending = pendingPowerLoss {
            harnessError = "the power loss armed at step \(pending.step) never happened before this launch: "
                + "its trigger was not reached by the steps in between"
            stopped = true
            return ("error", harnessError)
        }
        powerOut = false
        if worker != nil {
            // A launch while running is a restart: stop gracefully first.
            let (outcome, detail) = stopWorker()
            if outcome != "ok" { return (outcome, detail) }
        }
        guard let session = startWorker() else { return (stopped ? "trapped" : "error", evidence.abnormalEnd ?? harnessError) }
        worker = session
        if tracksWrites, request(.trackWrites, torn: tornWrites) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
        // Faults stay armed across relaunches until cleared; a `times: N` fault fires N
        // times in the whole case, not N per launch.
        for (_, arming) in activeArmings where !clean {
            var arming = arming
            let fired = injections.filter { $0.mechanism == "fault-point" && $0.target == arming.point }.count
            guard let remaining = arming.trigger.remaining(afterFiring: fired) else { continue }
            arming.trigger.times = remaining
            guard request(.arm, arming: arming) != nil else { return ("error", harnessError ?? evidence.abnormalEnd) }
        }
        for (kind, rule) in activeStorage where !clean {
            var rule = rule
            let fired = injections.filter { $0.mechanism == "vfs" && $0.kind == kind }.count
            guard let remaining = rule.trigger.remaining(afterFiring: fired) else { continue }
            rule.trigger.times = remaining
            guard request(.armStorage, storage: rule) != nil else { return ("error", harnessError ?? evidence.abnormalEnd) }
        }
        if workerLaunches == 1, let trial = options.sweepTrial {
            if let rule = trial.storageRule, request(.armStorage, storage: rule) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
            if let order = trial.powerLossOrder, request(.powerLoss, powerLoss: order) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
        }
        let launchStart = clock.now
        evidence.health = nil
        recoverySince = (launchStart, "the launch")
        evidence.recoveryMs = nil
        evidence.recoveryMissing = nil
        guard let reply = request(.launch) else { return ("trapped", evidence.abnormalEnd) }
        if case let .map(health)? = reply.value {
            evidence.health = health
            let mode = health["mode"]?.stringValue ?? "?"
            return ("ok", "mode \(mode) in \(ms(clock.now - launchStart)) ms")
        }
        return ("ok", nil)
    }

    private func startWorker() -> WorkerSession? {
        workerLaunches += 1
        let stderrFile = scratch.appendingPathComponent("worker-\(workerLaunches).stderr")
        let context = TargetContext(dataDirectory: dataDirectory, variant: options.variant,
                                    options: targetOptions, seed: seed)
        do {
            try faketime?.workerStarting()
            switch try WorkerSession.start(command: workerCommand, context: context, stderrFile: stderrFile,
                                           deadline: deadline) {
            case let .ready(session):
                faketime?.workerStarted(pid: session.process.pid)
                files = session.ready.files
                return session
            case let .failed(termination, _, detail):
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                if case let .signaled(signal)? = termination, WorkerSession.trapSignals.contains(signal) {
                    recordTrap(signal: signal, stderr: stderr)
                } else {
                    harnessError = "\(detail)\n\(stderr.suffix(2_000))"
                }
                stopped = true
                return nil
            }
        } catch {
            harnessError = String(describing: error)
            stopped = true
            return nil
        }
    }

    /// Sends a request to the running worker; nil when it died, hung or is absent (the
    /// case is then stopped and the evidence says why), or when the power went out as
    /// a power-loss step said it would (the case goes on).
    private func request(_ op: WorkerOperation, name: String? = nil, arguments: [String: ScenarioValue]? = nil,
                         arming: PointArming? = nil, storage: StorageFaultRule? = nil,
                         powerLoss: PowerLossOrder? = nil, torn: Bool? = nil) -> WorkerReply? {
        guard let worker else {
            harnessError = harnessError ?? "'\(op.rawValue)' needs the app running: add a launch step before it"
            stopped = true
            return nil
        }
        let body = WorkerRequest(id: 0, op: op, name: name, arguments: arguments, arming: arming,
                                 storage: storage, powerLoss: powerLoss, torn: torn)
        let outcome = worker.request(body, deadline: deadline) { event in
            switch event.event {
            case .ack:
                evidence.acknowledged.insert(event.key)
                evidence.attempted.insert(event.key)
                evidence.removed.remove(event.key)
            case .attempt:
                evidence.attempted.insert(event.key)
            case .remove:
                evidence.removed.insert(event.key)
            }
        }
        switch outcome {
        case let .reply(reply):
            if workerLaunches == 1, let writes = reply.trackedWrites, let syncs = reply.trackedSyncs {
                firstLaunchIO = (writes, syncs)
            }
            recordFirings(reply.firings)
            recordStorageFirings(reply.storageFirings)
            let controlOperations: Set<WorkerOperation> = [.arm, .disarm, .armStorage, .disarmStorage, .trackWrites, .powerLoss]
            if !reply.ok, controlOperations.contains(op) {
                harnessError = "the worker could not '\(op.rawValue)': \(reply.error ?? "no reason given")"
                stopped = true
                return nil
            }
            if let error = reply.error, error.hasPrefix("target: ") {
                harnessError = "the target refused '\(name ?? op.rawValue)': \(error.dropFirst(8))"
                stopped = true
                return nil
            }
            return reply
        case let .ended(termination):
            self.worker = nil
            if termination == .exited(PowerLoss.exitCode),
               let order = powerLoss ?? pendingPowerLoss?.order ?? (workerLaunches == 1 ? options.sweepTrial?.powerLossOrder : nil) {
                if workerLaunches == 1, options.sweepTrial?.powerLossOrder != nil { sweepFired = true }
                powerWentOut(order, during: name ?? op.rawValue, stderr: worker.stderr)
                return nil
            }
            workerEnded(termination, stderr: worker.stderr, during: name ?? op.rawValue)
            return nil
        case .interrupted:
            self.worker = nil
            _ = worker.kill()
            interrupted = true
            stopped = true
            return nil
        case .hung:
            self.worker = nil
            evidence.evidenceGap = "not reached: the app hung"
            evidence.abnormalEnd = "hung: no answer to '\(name ?? op.rawValue)' before the case timeout "
                + "(\(ScenarioDuration.format(scenario.timeout))); the worker's process group was killed"
            stopped = true
            return nil
        }
    }

    // MARK: - Power loss

    private func losePower(_ step: PowerLossStep, index: Int) -> (String, String?) {
        let order = PowerLossOrder(step: step, seed: SplitMix64.subseed(seed, "step-\(index)"))
        if order.isNow {
            _ = request(.powerLoss, powerLoss: order)
            if powerOut { return ("ok", "the power went out (\(step.mode.rawValue))") }
            return (stopped ? "error" : "ok", evidence.abnormalEnd ?? harnessError ?? "the worker answered instead of losing power")
        }
        guard request(.powerLoss, powerLoss: order) != nil else { return ("error", harnessError ?? evidence.abnormalEnd) }
        pendingPowerLoss = (order, index)
        return ("ok", "armed: \(step.label)")
    }

    private func powerWentOut(_ order: PowerLossOrder, during what: String, stderr: String) {
        powerOut = true
        pendingPowerLoss = nil
        let when = order.isNow ? "now" : "during '\(what)'"
        injections.append(InjectionRecord(kind: "power-loss", target: "store", detail: "power lost \(when), \(order.mode.rawValue) unsynced writes",
                                          atMs: ms(clock.now - start), mechanism: "vfs"))
    }

    private func workerEnded(_ termination: ChildProcess.Termination, stderr: String, during what: String) {
        stopped = true
        switch termination {
        case let .signaled(signal) where WorkerSession.trapSignals.contains(signal):
            recordTrap(signal: signal, stderr: stderr)
        default:
            evidence.abnormalEnd = "the worker ended unexpectedly during '\(what)' (\(termination))"
            evidence.evidenceGap = "not reached: the app ended unexpectedly"
        }
    }

    private func recordTrap(signal: Int32, stderr: String) {
        evidence.trap = TrapParser.trap(signal: signal, stderr: stderr)
        evidence.evidenceGap = "not reached: the app trapped"
    }

    private func stopWorker() -> (String, String?) {
        guard let worker else { return ("ok", "the app was not running") }
        guard request(.stop) != nil else { return ("trapped", evidence.abnormalEnd) }
        let (termination, killed) = worker.process.waitForExit(deadline: min(deadline, clock.now + .seconds(10)))
        self.worker = nil
        if killed {
            evidence.abnormalEnd = "the worker did not exit after stop; killed"
            stopped = true
            return ("timed-out", evidence.abnormalEnd)
        }
        if termination != .exited(0) {
            workerEnded(termination, stderr: worker.stderr, during: "stop")
            return ("trapped", "\(termination)")
        }
        return ("ok", nil)
    }

    private func perform(_ action: ActionStep, index: Int, label: String) -> (String, String?) {
        var failures = 0
        var lastMessage: String?
        for _ in 0..<action.repeatCount {
            guard let reply = request(.perform, name: action.name, arguments: action.arguments) else {
                if powerOut { return ("power-lost", "the power went out during this step") }
                return (evidence.trap != nil ? "trapped" : "error", evidence.abnormalEnd ?? harnessError)
            }
            evidence.acknowledged.formUnion(reply.acknowledged ?? [])
            evidence.attempted.formUnion(reply.attempted ?? [])
            evidence.removed.formUnion(reply.removed ?? [])
            for key in reply.acknowledged ?? [] { evidence.removed.remove(key) }
            if reply.isRead == true, let since = recoverySince {
                evidence.recoveryMs = ms(clock.now - since.instant)
                recoveryStartMs = ms(since.instant - start)
                recoverySince = nil
            }
            if !reply.ok {
                failures += 1
                lastMessage = reply.userMessage ?? reply.error
            }
        }
        let summary = failures == 0 ? nil : "\(failures) of \(action.repeatCount) failed" + (lastMessage.map { ": \($0)" } ?? "")
        switch action.expectError {
        case true? where failures == 0:
            stepFailures.append(ExpectationResult(kind: "expect-error", label: "step \(index): \(label)", passed: false,
                                                  expected: "an error", observed: "it succeeded"))
            return ("unexpected-success", "expected an error; it succeeded")
        case false? where failures > 0:
            stepFailures.append(ExpectationResult(kind: "expect-error", label: "step \(index): \(label)", passed: false,
                                                  expected: "success", observed: summary ?? "an error"))
            return ("error", summary)
        case true?:
            return ("expected-error", summary)
        default:
            return (failures == 0 ? "ok" : "error", summary)
        }
    }

    private func snapshot(purpose: String) -> [String: [String: String]]? {
        guard let reply = request(.snapshot) else { return nil }
        guard reply.ok, let snapshot = reply.snapshot else {
            evidence.evidenceGap = "\(purpose): the app could not read its data (\(reply.error ?? "no snapshot"))"
            return nil
        }
        return snapshot
    }

    // MARK: - Faults

    private func inject(_ step: FaultStep, index: Int) -> (String, String?) {
        let subseed = SplitMix64.subseed(seed, "step-\(index)")
        switch step.fault.base {
        case let fault as any FileFault:
            guard worker == nil else {
                harnessError = "step \(index) '\(step.fault.label)' damages files while the app is running: "
                    + "add a stop or kill step before it"
                stopped = true
                return ("error", harnessError)
            }
            guard let url = logicalFile(fault.file) else { return ("error", harnessError) }
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
            var rng = SplitMix64(seed: subseed)
            let plan = fault.plan(fileSize: size, rng: &rng)
            do {
                // Paths in the report are relative to the app's data folder, so two runs compare.
                let done = try FileDamage.apply(plan, to: url)
                    .replacingOccurrences(of: hostDataDirectory.path + "/", with: "")
                injections.append(InjectionRecord(kind: step.fault.kind, target: fault.file, detail: done,
                                                  atMs: ms(clock.now - start), mechanism: "file-damage"))
                return ("ok", done)
            } catch {
                harnessError = "step \(index) '\(step.fault.label)': \(error)"
                stopped = true
                return ("error", harnessError)
            }
        case let fault as DiskFullFault where fault.mechanism == .tmpfs:
            guard let tmpfs else {
                harnessError = "disk-full with mechanism tmpfs, but no tmpfs is mounted"
                stopped = true
                return ("error", harnessError)
            }
            do {
                let done = try tmpfs.fill()
                tmpfsFilled = true
                injections.append(InjectionRecord(kind: step.fault.kind, target: "disk", detail: done,
                                                  atMs: ms(clock.now - start), mechanism: "tmpfs"))
                return ("ok", done)
            } catch {
                harnessError = "step \(index) '\(step.fault.label)': \(error)"
                stopped = true
                return ("error", harnessError)
            }
        case _ where step.fault.family == .storage:
            guard let rule = StorageFaultRule(fault: step.fault, trigger: step.trigger, seed: subseed) else {
                harnessError = "fault '\(step.fault.kind)' has no storage rule"
                stopped = true
                return ("error", harnessError)
            }
            activeStorage.append((step.fault.kind, rule))
            if worker != nil, request(.armStorage, storage: rule) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed in the VFS: \(step.fault.label)")
        case let fault as ThrowFault:
            let arming = PointArming(point: fault.point, effect: .fail, message: fault.message,
                                     trigger: step.trigger, seed: subseed)
            activeArmings.append((step.fault.kind, arming))
            if worker != nil, request(.arm, arming: arming) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed \(fault.point)")
        case let fault as ResetContextFault:
            let arming = PointArming(point: fault.point, effect: .targetEffect, targetEffect: ResetContextFault.effect,
                                     trigger: step.trigger, seed: subseed)
            activeArmings.append((step.fault.kind, arming))
            if worker != nil, request(.arm, arming: arming) == nil { return ("error", harnessError ?? evidence.abnormalEnd) }
            return ("ok", "armed \(fault.point)")
        case let fault as any NetworkFault:
            return armNetwork(fault, trigger: step.trigger, seed: subseed)
        case let fault as any ClockFault:
            return changeClock(step.fault.kind) { try $0.apply(fault) }
        default:
            harnessError = "fault '\(step.fault.kind)' is not supported by this runner yet"
            stopped = true
            return ("error", harnessError)
        }
    }

    private func clear(_ kind: String?) -> (String, String?) {
        let cleared = activeArmings.filter { kind == nil || $0.kind == kind }
        activeArmings.removeAll { kind == nil || $0.kind == kind }
        let clearedStorage = activeStorage.filter { kind == nil || $0.kind == kind }
        activeStorage.removeAll { kind == nil || $0.kind == kind }
        if worker != nil {
            for (_, arming) in cleared where request(.disarm, name: arming.point) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
            for storageKind in Set(clearedStorage.map(\.kind)) where request(.disarmStorage, name: storageKind) == nil {
                return ("error", harnessError ?? evidence.abnormalEnd)
            }
        }
        var names = cleared.map(\.arming.point) + clearedStorage.map(\.kind)
        if let lab, kind == nil || FaultCatalog.kind(named: kind ?? "")?.family == .network {
            do {
                names += try lab.clear(kind: kind)
            } catch {
                harnessError = "clearing \(kind ?? "all") in the fault proxy: \(error)"
                stopped = true
                return ("error", harnessError)
            }
        }
        if faketime != nil, kind == nil || FaultCatalog.kind(named: kind ?? "")?.family == .clock {
            guard case let ("ok", done?) = changeClock(nil, { try $0.clear(kind: kind) }) else { return ("error", harnessError) }
            names.append("\(kind ?? "the clock faults") (\(done))")
        }
        if tmpfsFilled, kind == nil || kind == DiskFullFault.kind, let tmpfs {
            _ = tmpfs.drain()
            tmpfsFilled = false
            names.append("the tmpfs ballast")
        }
        if !names.isEmpty {
            recoverySince = (clock.now, "the clear")
            evidence.recoveryMs = nil
        }
        return ("ok", names.isEmpty ? "nothing armed" : "disarmed " + names.joined(separator: ", "))
    }

    // MARK: Clock — libfaketime.

    /// Rewrites the clock of the case's workers; `kind` records it as an injection
    /// (a `clear` passes nil).
    private func changeClock(_ kind: String?, _ change: (FaketimeClock) throws -> String) -> (String, String?) {
        guard let faketime else {
            harnessError = "clock faults need the libfaketime seam, which this case did not prepare"
            stopped = true
            return ("error", harnessError)
        }
        do {
            let done = try change(faketime)
            if let kind {
                injections.append(InjectionRecord(kind: kind, target: "clock", detail: done, atMs: ms(clock.now - start),
                                                  mechanism: InjectionRecord.Mechanism.libfaketime))
            }
            return ("ok", done)
        } catch {
            harnessError = "moving the app's clock: \(error)"
            stopped = true
            return ("error", harnessError)
        }
    }

    // MARK: Network lab — arming and evidence.

    private func armNetwork(_ fault: any NetworkFault, trigger: Trigger, seed: UInt64) -> (String, String?) {
        guard let lab else {
            harnessError = "fault '\(type(of: fault).kind)' needs the network lab, which is not running"
            stopped = true
            return ("error", harnessError)
        }
        do {
            try lab.arm(fault, trigger: trigger, seed: seed)
        } catch {
            harnessError = "arming \(fault.label) in the fault proxy: \(error)"
            stopped = true
            return ("error", harnessError)
        }
        return ("ok", "armed in the fault proxy: \(fault.label)" + (trigger.label.isEmpty ? "" : " (\(trigger.label))"))
    }

    /// What the proxy's faults did since the last step: the connections they picked
    /// and the connections they ended.
    private func recordNetworkFirings() {
        for firing in lab?.takeFirings() ?? [] {
            injections.append(InjectionRecord(kind: firing.kind, target: "proxy", detail: firing.detail,
                                              atMs: ms(clock.now - start), count: firing.connection,
                                              mechanism: InjectionRecord.Mechanism.proxy))
        }
    }

    private func recordStorageFirings(_ firings: [StorageFiring]?) {
        for firing in firings ?? [] {
            if workerLaunches == 1, options.sweepTrial?.storageRule?.kind.rawValue == firing.kind { sweepFired = true }
            injections.append(InjectionRecord(
                kind: firing.kind, target: firing.file,
                detail: "\(firing.operation) of \(URL(fileURLWithPath: firing.path).lastPathComponent) → result code \(firing.resultCode)",
                atMs: ms(clock.now - start), count: firing.count, mechanism: "vfs"))
        }
    }

    private func recordFirings(_ firings: [PointFiring]?) {
        for firing in firings ?? [] {
            let kind = activeArmings.first { $0.arming.point == firing.point || firing.point.hasPrefix($0.arming.point.dropLast()) }?.kind ?? "throw"
            injections.append(InjectionRecord(kind: kind, target: firing.point, detail: "\(firing.action) at hit \(firing.hit)",
                                              atMs: ms(clock.now - start), count: firing.hit, mechanism: "fault-point"))
        }
    }

    private func logicalFile(_ name: String) -> URL? {
        if files == nil { files = describeTarget() }
        guard let relative = files?[name] else {
            let known = (files ?? [:]).keys.sorted().joined(separator: ", ")
            harnessError = harnessError ?? "the target has no file named '\(name)'; it has: \(known)"
            stopped = true
            return nil
        }
        return hostDataDirectory.appendingPathComponent(relative)
    }

    /// Starts a worker only to read its ready line (its logical files), then stops it.
    private func describeTarget() -> [String: String]? {
        let stderrFile = scratch.appendingPathComponent("describe.stderr")
        let context = TargetContext(dataDirectory: scratch.appendingPathComponent("describe"), variant: options.variant,
                                    options: targetOptions, seed: seed)
        guard case let .ready(session)? = try? WorkerSession.start(command: workerCommand, context: context,
                                                                   stderrFile: stderrFile, deadline: deadline) else { return nil }
        faketime?.workerStarted(pid: session.process.pid)
        _ = session.kill()
        return session.ready.files
    }

    // MARK: - End of case

    private var needsIntegrity: Bool {
        scenario.expectations.contains { $0.kind == .integrity }
    }

    private func gatherFinalEvidence() {
        let kinds = scenario.expectations.map(\.kind)
        let needsApp = kinds.contains { expectation in
            switch expectation {
            case .surfaced, .state, .preserved: true
            default: false
            }
        }
        guard needsApp else { return }
        if evidence.recoveryMs == nil, let since = recoverySince {
            evidence.recoveryMissing = "no successful read after \(since.what)"
        }
        if worker == nil {
            // The app is judged as the user would find it: on a fresh launch.
            guard verificationLaunch() else { return }
        }
        if let reply = request(.probe, name: "surfaced"), case let .map(surfaced)? = reply.value {
            evidence.surfaced = surfaced
        }
        for case let .state(probe, _) in kinds {
            if probe.hasPrefix("remote."), let lab {
                guard let value = lab.probe(probe) else {
                    harnessError = "unknown probe '\(probe)'; the network lab answers: \(NetworkLab.probes.joined(separator: ", "))"
                    return
                }
                evidence.probes[probe] = value
                continue
            }
            if let reply = request(.probe, name: probe), let value = reply.value { evidence.probes[probe] = value }
        }
        if kinds.contains(where: { if case .preserved = $0 { true } else { false } }) {
            // Kept means kept across a restart: what the app acknowledged from memory
            // alone does not count. Stop it gracefully and read its data on a new launch.
            if worker != nil {
                let (outcome, _) = stopWorker()
                guard outcome == "ok" else { return }
            }
            guard verificationLaunch() else { return }
            evidence.finalSnapshot = snapshot(purpose: "the final snapshot, after a restart")
        }
    }

    /// A launch of the controller's own, to read evidence: it is not one of the
    /// scenario's, so the last launch's health and recovery time stay as they were, and
    /// no fault is armed in it: it shows what the faults left behind.
    private func verificationLaunch() -> Bool {
        let saved = (evidence.health, evidence.recoveryMs, evidence.recoveryMissing, recoverySince)
        _ = launch(clean: true)
        (evidence.health, evidence.recoveryMs, evidence.recoveryMissing, recoverySince) = saved
        return worker != nil
    }

    private func shutDownWorker() {
        guard worker != nil else { return }
        if stopped || interrupted {
            _ = worker?.kill()
            worker = nil
        } else {
            _ = stopWorker()
        }
    }

    private func checkIntegrity() {
        guard var url = logicalFile("store") else { return }
        if tmpfs != nil {
            // SQLite resolves /proc/PID/root back to this namespace's "/": check a copy.
            let copy = scratch.appendingPathComponent("integrity", isDirectory: true)
            try? FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for suffix in ["", "-wal"] {
                let source = URL(fileURLWithPath: url.path + suffix)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try? FileManager.default.copyItem(at: source, to: copy.appendingPathComponent(url.lastPathComponent + suffix))
            }
            url = copy.appendingPathComponent(url.lastPathComponent)
        }
        evidence.integrityChecked = true
        evidence.integrityProblem = IntegrityCheck.problems(at: url.path)
    }

    private func expectationResults() -> [ExpectationResult] {
        scenario.checkedExpectations.map { ExpectationEvaluator.evaluate($0.kind, evidence: evidence) } + stepFailures
    }

    private func fail(step index: Int, label: String, outcome: String, detail: String) {
        steps.append(StepRecord(index: index + 1, label: label, startMs: ms(clock.now - start), durationMs: 0,
                                outcome: outcome, detail: detail))
    }

    // MARK: - Report

    private func report(verdict: Verdict, expectations: [ExpectationResult] = [], error: String? = nil) -> CaseReport {
        var report = CaseReport(
            scenario: scenario.name, summary: scenario.summary, system: scenario.system,
            scenarioFile: scenario.location.file, scenarioHash: CaseReport.scenarioHash(of: scenario.sourceText),
            seed: seed, variant: options.variant, verdict: verdict, durationMs: ms(clock.now - start),
            recoveryMs: evidence.recoveryMs, steps: steps, injections: injections, expectations: expectations,
            trap: evidence.trap,
            reproduce: Self.reproduceCommand(scenario: scenario, seed: seed, variant: options.variant, extras: options.reproduceExtras),
            error: error, workerLaunches: workerLaunches)
        report.recoveryStartMs = evidence.recoveryMs == nil ? nil : recoveryStartMs
        report.options = targetOptions
        return report
    }

    private func makeScratch() throws -> URL {
        let url = options.scratchRoot.appendingPathComponent("chaos-\(scenario.name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func cleanUp() {
        if let worker { _ = worker.kill() }
        worker = nil
        lab?.stop()
        lab = nil
        faketime?.cleanUp()
        faketime = nil
        tmpfs?.unmount()
        tmpfs = nil
        guard !options.keepScratch else { return }
        // Permission bits may have been cleared by a read-only fault.
        if let enumerator = FileManager.default.enumerator(atPath: scratch.path) {
            for case let path as String in enumerator { _ = chmod(scratch.appendingPathComponent(path).path, 0o755) }
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Where this case's files are (meaningful with `--keep`).
    public var scratchDirectory: URL { scratch }

    private func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
