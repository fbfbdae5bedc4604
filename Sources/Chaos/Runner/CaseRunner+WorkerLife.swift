import Foundation

/// How a worker ends: power loss, traps, unexpected ends, graceful stops; and the
/// user-level actions and snapshots that run on it.
extension CaseRunner {
    // MARK: - Power loss

    func losePower(_ step: PowerLossStep, index: Int) -> (String, String?) {
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

    func powerWentOut(_ order: PowerLossOrder, during what: String, stderr: String) {
        powerOut = true
        pendingPowerLoss = nil
        let when = order.isNow ? "now" : "during '\(what)'"
        injections.append(InjectionRecord(kind: "power-loss", target: "store", detail: "power lost \(when), \(order.mode.rawValue) unsynced writes",
                                          atMs: ms(clock.now - start), mechanism: "vfs"))
    }

    func workerEnded(_ termination: ChildProcess.Termination, stderr: String, during what: String) {
        stopped = true
        switch termination {
        case let .signaled(signal) where WorkerSession.trapSignals.contains(signal):
            recordTrap(signal: signal, stderr: stderr)
        default:
            evidence.abnormalEnd = "the worker ended unexpectedly during '\(what)' (\(termination))"
            evidence.evidenceGap = "not reached: the app ended unexpectedly"
        }
    }

    func recordTrap(signal: Int32, stderr: String) {
        evidence.trap = TrapParser.trap(signal: signal, stderr: stderr)
        evidence.evidenceGap = "not reached: the app trapped"
    }

    func stopWorker() -> (String, String?) {
        guard let worker else { return ("ok", "the app was not running") }
        guard request(.stop) != nil else {
            if powerOut { return ("power-lost", "the power went out while the app was stopping") }
            return (evidence.trap != nil ? "trapped" : "error", evidence.abnormalEnd ?? harnessError)
        }
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

    func perform(_ action: ActionStep, index: Int, label: String) -> (String, String?) {
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

    func snapshot(purpose: String) -> [String: [String: String]]? {
        guard let reply = request(.snapshot) else { return nil }
        guard reply.ok, let snapshot = reply.snapshot else {
            evidence.evidenceGap = "\(purpose): the app could not read its data (\(reply.error ?? "no snapshot"))"
            return nil
        }
        return snapshot
    }
}
