import Foundation
import ChaosTarget

/// The app of one case as its steps and its seams drive it: requests to the running
/// worker (``AppProcess``), and how each way the app can end becomes the case's
/// (``CaseEnd``), written in the case's log. A seam arms and disarms what it carries in
/// the app's process here: no seam reaches the runner.
final class CaseApp {
    let process: AppProcess
    let log: CaseLog
    let clock: CaseClock
    /// The step being carried out (`step-7`), nil between steps: where a slow answer was.
    var currentStep: String?
    /// The actions that answered as reads (`.read(value)`): what recovery is measured to.
    var readActions: Set<String> = []
    /// How the app's last end by its power seam is said: "the power went out", or "the
    /// system killed the app for its memory" (``PowerLossOrder/endWords``).
    private(set) var lastEnd = PowerLossOrder(mode: .keep, seed: 0)

    /// The app's other process on its shared store, which `do: … in: peer` asks
    /// (``CaseApp/peerProcess()``); nil until then.
    var peer: AppProcess?
    /// The target declares a shared container: another process of the app may run.
    let sharesAContainer: Bool

    init(process: AppProcess, log: CaseLog, clock: CaseClock, sharesAContainer: Bool = false) {
        self.process = process
        self.log = log
        self.clock = clock
        self.sharesAContainer = sharesAContainer
    }

    var isRunning: Bool { process.isRunning }

    /// Sends a request (to the app, or to `other`: its peer); nil when the power went
    /// out, as a power loss said it would (the case goes on). Any other end of the app
    /// ends the case.
    func ask(_ request: WorkerRequest, of other: AppProcess? = nil) throws(CaseEnd) -> WorkerReply? {
        let asked = clock.now
        do {
            let reply = try (other ?? process).request(request)
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

    /// Starts a worker and waits for its ready line.
    func start() throws(CaseEnd) {
        do { try process.start() } catch { try absorb(error) }
    }

    /// A graceful stop; a power loss may cut it.
    func stop() throws(CaseEnd) -> StepResult {
        guard isRunning else { return .ok("the app was not running") }
        do {
            try process.stop()
        } catch {
            try absorb(error)
            return StepResult(.powerLost, "\(lastEnd.endWords) while the app was stopping")
        }
        return .ok()
    }

    func kill() -> StepResult {
        guard isRunning else { return .ok("the app was not running") }
        endPeer()
        process.kill()
        return .ok("worker killed (SIGKILL)")
    }

    /// Every record of the app's data; nil when the app could not say (the gap is noted)
    /// or the power went out.
    func snapshot(purpose: String) throws(CaseEnd) -> [String: [String: String]]? {
        guard let reply = try ask(WorkerRequest(.snapshot)) else { return nil }
        guard case let .snapshot(snapshot) = reply.answer else {
            log.evidence.evidenceGap = MissingEvidence(text: "\(purpose): the app could not read its data (\(reply.answer.failureText ?? "no snapshot"))")
            return nil
        }
        return snapshot
    }

    /// Records what an app stop means; returns only for a power cut.
    func absorb(_ stop: AppStop) throws(CaseEnd) {
        switch stop {
        case let .powerLost(order, _):
            lastEnd = order
            if order.memory == nil { endPeer() }  // the power is the whole device's
            // A memory kill keeps every write: no cause of a power loss applies.
            log.evidence.powerWentOut = order.memory == nil
            log.evidence.writesBeforeCut = log.tracked?.writes
            log.evidence.syncsBeforeCut = log.tracked?.syncs
        case let .trapped(trap):
            log.evidence.trap = trap
            log.evidence.evidenceGap = MissingEvidence.notReached(.trapped)
            throw .trapped
        case let .failed(end):
            log.evidence.abnormalEnd = end
            if let kind = end.leavesEvidenceGap { log.evidence.evidenceGap = MissingEvidence.notReached(kind) }
            throw .appFailed
        case let .harness(reason):
            throw .harness(reason)
        case .interrupted:
            throw .interrupted
        }
    }
}

/// `do:` — an action of the target, asked `repeat:` times, judged against
/// `expect-error:`; a read that fails while the app gets over a cleared fault is asked
/// again until the scenario's `recovered-within` bound (``RecoveryPoll``).
extension CaseApp {
    /// `recoveryBound`: how long a failed read of that name may be asked again (nil:
    /// asked once, as when a fault still stands).
    func perform(_ action: ActionStep, label: String, recoveryBound: (String) -> Duration?) throws(CaseEnd) -> StepResult {
        var failures = 0
        var lastMessage: String?
        let name = action.name
        // What the user typed: `private-logs` looks for it in every log record.
        for (key, value) in action.arguments.sorted(by: { $0.key < $1.key }) {
            if case let .string(text) = value { log.evidence.userInput.append(UserContent(key: "\(name) \(key)", text: text)) }
        }
        var recovering: RecoveryPoll?
        let before = log.tracked
        defer { if let before, let after = log.tracked { log.actionSpans.append((before, after)) } }
        let asked = action.inPeer ? try peerProcess() : nil
        for _ in 0..<action.repeatCount {
            guard var answer = try ask(WorkerRequest(.perform(name, arguments: action.arguments)), of: asked)?.answer else { return cutByThePowerLoss(label) }
            if answer.isRead { readActions.insert(name) }
            // Recovery as users mean it: a read that fails while the app is still getting
            // over a cleared fault (backing off, reconnecting) is asked again until it
            // answers or the bound has passed.
            if !answer.ok, action.expectError == nil, let bound = recoveryBound(name) {
                var poll = RecoveryPoll(bound: bound)
                // An app getting over a fault for a while lets the pool start another trial.
                let polling = clock.now
                defer { clock.slot?.working() }
                while !answer.ok, let pause = poll.nextPause(since: log.recoverySince?.instant, now: clock.now) {
                    poll.failed()
                    if clock.now - polling >= TrialSlot.waitingAfter { clock.slot?.waiting() }
                    Thread.sleep(forTimeInterval: Double(pause.wholeMilliseconds) / 1000)
                    guard let again = try ask(WorkerRequest(.perform(name, arguments: action.arguments)), of: asked)?.answer else { return cutByThePowerLoss(label) }
                    answer = again
                }
                if !answer.ok { log.evidence.recoveryMissing = poll.missing(after: log.recoverySince?.what, last: answer.failureText) }
                recovering = poll
            }
            if answer.isRead { log.read(at: clock.now, clock: clock) } else { log.writesInRun += 1 }
            if !answer.ok {
                failures += 1
                lastMessage = answer.failureText
                log.failed(answer)
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

    /// A step the power cut ended before the app answered.
    private func cutByThePowerLoss(_ label: String) -> StepResult {
        log.evidence.unresolvedActions.append("\(label): cut by \(lastEnd.endNoun)")
        return StepResult(.powerLost, "\(lastEnd.endWords) during this step")
    }
}

/// `suspend` and `resume` steps: the app stopped as iOS suspends it, judged on the locks
/// it holds on its shared container's files (``AppProcess``'s suspension), each way the
/// app can end becoming the case's as for any request.
extension CaseApp {
    /// The app of a target so declared, its data in `dataDirectory` (as it sees it).
    func suspend(_ step: SuspendStep, declaration: TargetDeclaration, dataDirectory: URL) throws(CaseEnd) -> StepResult {
        let shared = SharedContainer(declaration: declaration, dataDirectory: dataDirectory)
        switch step.moment {
        case .now:
            do { return .ok(try process.suspend(notice: step.notice, shared: shared)) } catch {
                try absorb(error)
                return StepResult(.powerLost, "\(lastEnd.endWords) during the notice")
            }
        case .whileSaving:
            guard declaration.sqliteLibraries > 0, !shared.isEmpty else {
                throw .notApplicable("'suspend: while-saving' waits for a write lock on a SQLite store of the target's shared container, "
                    + "and it declares " + (shared.isEmpty ? "no shared container (sharedContainer)" : "no SQLite"))
            }
            _ = try ask(WorkerRequest(.suspendWhileSaving))
            process.suspensionWaiting = SuspensionPlan(notice: step.notice, shared: shared)
            return .ok("armed: at the app's next write lock on a file of its shared container")
        }
    }

    func resume() throws(CaseEnd) -> StepResult {
        do { try process.resume() } catch {
            try absorb(error)
            return StepResult(.powerLost, "\(lastEnd.endWords) as the app came back")
        }
        return .ok("continued (SIGCONT)")
    }

    /// Before the case's evidence: a suspended app is continued, and a suspension whose
    /// moment never came says so.
    func endSuspension() throws(CaseEnd) {
        process.noteSuspensionNeverCame()
        if process.suspended { _ = try resume() }
        log.injections += process.takeSuspensions()
    }
}
