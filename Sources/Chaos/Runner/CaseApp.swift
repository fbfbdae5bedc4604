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

    init(process: AppProcess, log: CaseLog, clock: CaseClock) {
        self.process = process
        self.log = log
        self.clock = clock
    }

    var isRunning: Bool { process.isRunning }

    /// Sends a request; nil when the power went out, as a power loss said it would
    /// (the case goes on). Any other end of the app ends the case.
    func ask(_ request: WorkerRequest) throws(CaseEnd) -> WorkerReply? {
        let asked = clock.now
        do {
            let reply = try process.request(request)
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
            return StepResult(.powerLost, "the power went out while the app was stopping")
        }
        return .ok()
    }

    func kill() -> StepResult {
        guard isRunning else { return .ok("the app was not running") }
        process.kill()
        return .ok("worker killed (SIGKILL)")
    }

    /// Every record of the app's data; nil when the app could not say (the gap is noted)
    /// or the power went out.
    func snapshot(purpose: String) throws(CaseEnd) -> [String: [String: String]]? {
        guard let reply = try ask(WorkerRequest(.snapshot)) else { return nil }
        guard reply.ok, let snapshot = reply.snapshot else {
            log.evidence.evidenceGap = MissingEvidence(text: "\(purpose): the app could not read its data (\(reply.error ?? "no snapshot"))")
            return nil
        }
        return snapshot
    }

    /// Records what an app stop means; returns only for a power cut.
    private func absorb(_ stop: AppStop) throws(CaseEnd) {
        switch stop {
        case .powerLost:
            log.evidence.powerWentOut = true
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
