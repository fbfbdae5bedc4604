import Foundation
import ChaosTarget

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
        for _ in 0..<action.repeatCount {
            guard var reply = try ask(WorkerRequest(.perform(name, arguments: action.arguments))) else { return cutByThePowerLoss(label) }
            if reply.isRead == true { readActions.insert(name) }
            // Recovery as users mean it: a read that fails while the app is still getting
            // over a cleared fault (backing off, reconnecting) is asked again until it
            // answers or the bound has passed.
            if !reply.ok, action.expectError == nil, let bound = recoveryBound(name) {
                var poll = RecoveryPoll(bound: bound)
                // An app getting over a fault for a while lets the pool start another trial.
                let polling = clock.now
                defer { clock.slot?.working() }
                while !reply.ok, let pause = poll.nextPause(since: log.recoverySince?.instant, now: clock.now) {
                    poll.failed(reply.userMessage ?? reply.error)
                    if clock.now - polling >= TrialSlot.waitingAfter { clock.slot?.waiting() }
                    Thread.sleep(forTimeInterval: Double(pause.wholeMilliseconds) / 1000)
                    guard let again = try ask(WorkerRequest(.perform(name, arguments: action.arguments))) else { return cutByThePowerLoss(label) }
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

    /// A step the power cut ended before the app answered.
    private func cutByThePowerLoss(_ label: String) -> StepResult {
        log.evidence.unresolvedActions.append("\(label): cut by the power loss")
        return StepResult(.powerLost, "the power went out during this step")
    }
}
