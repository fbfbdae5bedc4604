import Foundation

/// Carrying out the steps: launch, actions, and the protocol with the worker.
extension CaseRunner {
    // MARK: - Steps

    func perform(_ step: ScenarioStep, index: Int) {
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
    func launch(clean: Bool = false) -> (String, String?) {
        if worker != nil, let pending = pendingPowerLoss {
            harnessError = "the power loss armed at step \(pending.step) never happened before this launch: "
                + "its trigger was not reached by the steps in between"
            stopped = true
            return ("error", harnessError)
        }
        powerOut = false
        var lostPowerWhileStopping = false
        if worker != nil {
            // A launch while running is a restart: stop gracefully first. A power loss
            // armed earlier may fire while the app stops; the launch goes on when the
            // power is back, as the user's would.
            let (outcome, detail) = stopWorker()
            if outcome == StepRecord.Outcome.powerLost {
                powerOut = false
                lostPowerWhileStopping = true
            } else if outcome != "ok" {
                return (outcome, detail)
            }
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
        let before = lostPowerWhileStopping ? "the power went out while the app was stopping; then " : ""
        let launchStart = clock.now
        evidence.health = nil
        recoverySince = (launchStart, "the launch")
        evidence.recoveryMs = nil
        evidence.recoveryMissing = nil
        guard let reply = request(.launch) else {
            if powerOut { return ("power-lost", "the power went out during the launch") }
            return (evidence.trap != nil ? "trapped" : "error", evidence.abnormalEnd ?? harnessError)
        }
        if case let .map(health)? = reply.value {
            evidence.health = health
            let mode = health["mode"]?.stringValue ?? "?"
            return ("ok", before + "mode \(mode) in \(ms(clock.now - launchStart)) ms (worker ready in \(workerReadyMs) ms)")
        }
        return ("ok", before + "worker ready in \(workerReadyMs) ms")
    }

    func startWorker() -> WorkerSession? {
        workerLaunches += 1
        let stderrFile = scratch.appendingPathComponent("worker-\(workerLaunches).stderr")
        let context = TargetContext(dataDirectory: dataDirectory, variant: options.variant,
                                    options: targetOptions, seed: seed)
        let spawned = clock.now
        do {
            try faketime?.workerStarting()
            defer { workerReadyMs = ms(clock.now - spawned) }
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
    func request(_ op: WorkerOperation, name: String? = nil, arguments: [String: ScenarioValue]? = nil,
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
}
