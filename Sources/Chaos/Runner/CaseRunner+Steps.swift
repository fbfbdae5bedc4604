import Foundation
import ChaosTarget

/// Carrying out the steps that drive the app: launch, stop, kill, actions, checkpoints.
extension CaseRunner {
    /// One step. Throws when the step ends the case.
    func perform(_ step: ScenarioStep, id: String) throws(CaseEnd) -> StepResult {
        if seams.power.isOut, step.action.touchesApp {
            return StepResult(.skipped, "the power is out: the app is down until the next launch")
        }
        switch step.action {
        case .launch: return try launch()
        case .stop: return try stop()
        case .kill:
            guard app.isRunning else { return .ok("the app was not running") }
            app.kill()
            return .ok("worker killed (SIGKILL)")
        case let .perform(action): return try perform(action, label: "\(id.replacingOccurrences(of: "-", with: " ")): \(step.label)")
        case let .checkpoint(name):
            guard let snapshot = try snapshot(purpose: "checkpoint \(name)") else {
                return StepResult(seams.power.isOut ? .powerLost : .error, log.evidence.evidenceGap)
            }
            log.evidence.checkpoints[name] = snapshot
            return .ok("\(snapshot.values.reduce(0) { $0 + $1.count }) records")
        case let .fault(fault): return try inject(fault, id: id)
        case let .clear(scope): return try clear(scope)
        case let .wait(duration):
            let until = min(clock.now + duration, clock.deadline)
            while clock.now < until, !RunInterruption.requested {
                Thread.sleep(forTimeInterval: min(0.05, Double((until - clock.now).wholeMilliseconds) / 1000))
            }
            return .ok()
        }
    }

    /// Sends a request; nil when the power went out, as a power loss said it would
    /// (the case goes on). Any other end of the app ends the case.
    func ask(_ request: WorkerRequest) throws(CaseEnd) -> WorkerReply? {
        let asked = clock.now
        do {
            let reply = try app.request(request)
            if request.op == .launch || request.op == .perform {
                let answer = SlowAnswer(ms: (clock.now - asked).wholeMilliseconds, what: request.name.map { "'\($0)'" } ?? "the launch",
                                        step: currentStep)
                log.evidence.slowestAnswer = SlowAnswer.slower(log.evidence.slowestAnswer, answer)
            }
            return reply
        } catch {
            try absorb(error)
            return nil
        }
    }

    /// Records what an app stop means; returns only for a power cut.
    func absorb(_ stop: AppStop) throws(CaseEnd) {
        switch stop {
        case .powerLost:
            log.evidence.powerWentOut = true
        case let .trapped(trap):
            log.evidence.trap = trap
            log.evidence.evidenceGap = ExpectationResult.notReached("the app trapped")
            throw .trapped
        case let .failed(what, gap):
            log.evidence.abnormalEnd = what
            log.evidence.evidenceGap = gap
            throw .appFailed
        case let .harness(reason):
            throw .harness(reason)
        case .interrupted:
            throw .interrupted
        }
    }

    /// `clean`: the controller's own launch to read evidence, with no fault armed.
    func launch(clean: Bool = false) throws(CaseEnd) -> StepResult {
        var before = ""
        if app.isRunning {
            if !clean, let never = seams.power.cutNeverCame { throw .harness(never) }
            // A launch while running is a restart: stop gracefully first. A power loss
            // may cut the stop; the launch goes on when the power is back.
            if try stop().outcome == .powerLost { before = "the power went out while the app was stopping; then " }
        }
        do {
            try app.start()
        } catch {
            try absorb(error)
        }
        try armForLaunch(clean: clean)
        let launchStart = clock.now
        log.evidence.health = nil
        log.startRecovery(at: launchStart, after: "the launch")
        guard let reply = try ask(WorkerRequest(op: .launch)) else {
            return StepResult(.powerLost, "the power went out during the launch")
        }
        let took = (clock.now - launchStart).wholeMilliseconds
        guard case let .map(health)? = reply.value else { return .ok(before + "worker ready in \(app.readyMs) ms") }
        log.evidence.health = health
        if let message = health["message"]?.stringValue, !message.isEmpty,
           ["warning", "error"].contains(health["severity"]?.stringValue ?? "none") {
            log.evidence.toldAtLaunch.formUnion(log.evidence.acknowledged)
            log.evidence.launchMessage = message
        }
        let mode = health["mode"]?.stringValue ?? "?"
        return .ok(before + "mode \(mode) in \(took) ms (worker ready in \(app.readyMs) ms)")
    }

    /// Arms a new worker with what each seam has standing (the in-process faults, a
    /// power loss written while the app was down, write tracking for power losses).
    func armForLaunch(clean: Bool) throws(CaseEnd) {
        if options.countPoints && !clean { _ = try ask(WorkerRequest(op: .countPoints)) }
        var armed = false
        for seam in seams.all { armed = try seam.launched(clean: clean, in: self) || armed }
        // A run launched while a fault stood outside the app (its network cut, its clock
        // moved) holds more than what it read from the disk, as a run with faults armed in it.
        log.startRun(armed: armed || (!clean && !standing.isEmpty))
    }

    func stop() throws(CaseEnd) -> StepResult {
        guard app.isRunning else { return .ok("the app was not running") }
        do {
            try app.stop()
        } catch {
            try absorb(error)
            return StepResult(.powerLost, "the power went out while the app was stopping")
        }
        return .ok()
    }

    func perform(_ action: ActionStep, label: String) throws(CaseEnd) -> StepResult {
        var failures = 0
        var lastMessage: String?
        let name = action.name
        // What the user typed: `private-logs` looks for it in every log record.
        for (key, value) in action.arguments.sorted(by: { $0.key < $1.key }) {
            if case let .string(text) = value { log.evidence.userInput.append(UserContent(key: "\(name) \(key)", text: text)) }
        }
        var recovering: RecoveryPoll?
        for _ in 0..<action.repeatCount {
            guard var reply = try ask(WorkerRequest(op: .perform, name: name, arguments: action.arguments)) else {
                log.evidence.unresolvedActions.append("\(label): cut by the power loss")
                return StepResult(.powerLost, "the power went out during this step")
            }
            if reply.isRead == true { readActions.insert(name) }
            // Recovery as users mean it: a read that fails while the app is still getting
            // over a cleared fault (backing off, reconnecting) is asked again until it
            // answers or the bound has passed.
            if !reply.ok, action.expectError == nil, let bound = recoveryPollBound(for: name) {
                var poll = RecoveryPoll(bound: bound)
                while !reply.ok, let pause = poll.nextPause(since: log.recoverySince?.instant, now: clock.now) {
                    poll.failed(reply.userMessage ?? reply.error)
                    Thread.sleep(forTimeInterval: Double(pause.wholeMilliseconds) / 1000)
                    guard let again = try ask(WorkerRequest(op: .perform, name: name, arguments: action.arguments)) else {
                        log.evidence.unresolvedActions.append("\(label): cut by the power loss")
                        return StepResult(.powerLost, "the power went out during this step")
                    }
                    reply = again
                }
                if !reply.ok { log.evidence.recoveryMissing = poll.missing(after: log.recoverySince?.what, last: reply.userMessage ?? reply.error) }
                recovering = poll
            }
            if reply.isRead == true { log.read(at: clock.now, clock: clock) } else { log.writesInRun += 1 }
            if !reply.ok {
                failures += 1
                lastMessage = reply.userMessage ?? reply.error
            }
        }
        if failures > 0 { log.evidence.unresolvedActions.append("\(label): \(failures) failed") }
        var summary = failures == 0 ? nil : "\(failures) of \(action.repeatCount) failed" + (lastMessage.map { ": \($0)" } ?? "")
        if let recovering, recovering.failures > 0 {
            summary = [recovering.note, summary].compactMap { $0 }.joined(separator: "; ")
        }
        switch action.expectError {
        case true? where failures == 0:
            log.stepFailures.append(ExpectationResult(kind: "expect-error", label: "\(label)", passed: false,
                                                      expected: "an error", observed: "it succeeded"))
            return StepResult(.unexpectedSuccess, "expected an error; it succeeded")
        case false? where failures > 0:
            log.stepFailures.append(ExpectationResult(kind: "expect-error", label: "\(label)", passed: false,
                                                      expected: "success", observed: summary ?? "an error"))
            return StepResult(.error, summary)
        case true?:
            return StepResult(.expectedError, summary)
        default:
            return StepResult(failures == 0 ? .ok : .error, summary)
        }
    }

    /// Every record of the app's data; nil when the app could not say (the gap is noted)
    /// or the power went out.
    func snapshot(purpose: String) throws(CaseEnd) -> [String: [String: String]]? {
        guard let reply = try ask(WorkerRequest(op: .snapshot)) else { return nil }
        guard reply.ok, let snapshot = reply.snapshot else {
            log.evidence.evidenceGap = "\(purpose): the app could not read its data (\(reply.error ?? "no snapshot"))"
            return nil
        }
        return snapshot
    }
}
