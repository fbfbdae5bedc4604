import Foundation
import ChaosTarget

/// The app under test as one case sees it: at most one worker at a time, started for
/// each launch on the case's data folder, and the requests the steps send it.
///
/// It knows how a worker can end and says so as an ``AppStop``: a power cut the case
/// asked for, a trap (with its record), a hang, an unexpected end, a harness problem.
/// What the worker reports along the way (its ready line, acknowledged writes, firings,
/// where the faults stand) and the end of each run are published as ``AppNews`` as they
/// come, to whoever listens (the case's log and seams).
final class AppProcess {
    struct Listeners {
        /// Hears every piece of news.
        var heard: (AppNews) -> Void = { _ in }
        /// The power loss armed in the running worker and waiting for its moment, if any:
        /// what a worker's power-loss exit code means.
        var cutWaiting: () -> PowerLossOrder? = { nil }
    }

    private let launcher: any WorkerLauncher
    private let context: TargetContext
    let clock: CaseClock
    private let scratch: URL
    let listeners: Listeners
    var worker: (any WorkerLink)?
    /// Workers started so far.
    private(set) var launches = 0
    /// How long the last worker took from spawn to its ready line.
    private(set) var readyMs = 0
    /// Processes a worker left running (in its group, or started by them), ended with
    /// it: how the report names them.
    var leftBehind: [String] = []

    /// A bound on one request, shorter than the case's timeout (``RunOptions/stepBound``).
    let stepBound: StepBound?
    /// Stopped by a `suspend` step (SIGSTOP), until `resume`.
    var suspended = false
    /// A `suspend: while-saving` armed in the running worker, until its moment comes.
    var suspensionWaiting: SuspensionPlan?
    /// Why the system killed the worker (0xdead10cc): what its SIGKILL means.
    var systemEnd: AppEnd?
    /// What each suspension found, for the case's log (``takeSuspensions()``).
    var suspensionRecords: [InjectionRecord] = []

    /// What its workers' stderr files are named after: `worker-1.stderr`, `peer-1.stderr`.
    let role: String

    init(launcher: any WorkerLauncher, context: TargetContext, clock: CaseClock, scratch: URL, listeners: Listeners, stepBound: StepBound? = nil,
         role: String = "worker") {
        self.stepBound = stepBound
        self.role = role
        self.launcher = launcher
        self.context = context
        self.clock = clock
        self.scratch = scratch
        self.listeners = listeners
    }

    var isRunning: Bool { worker != nil }

    /// Starts a worker and waits for its ready line.
    func start() throws(AppStop) {
        launches += 1
        (suspended, suspensionWaiting, systemEnd) = (false, nil, nil)
        let stderrFile = scratch.appendingPathComponent("\(role)-\(launches).stderr")
        let spawned = clock.now
        let start: WorkerStart
        do {
            start = try launcher.start(context, stderrFile: stderrFile, deadline: stepBound.map { min(clock.deadline, clock.now + $0.launch) } ?? clock.deadline)
        } catch {
            throw .harness("cannot start the worker: \(error)")
        }
        readyMs = (clock.now - spawned).wholeMilliseconds
        switch start {
        case let .ready(link):
            worker = link
            listeners.heard(.ready(link.ready))
        case let .failed(termination, _, detail):
            listeners.heard(.exited(powerCut: nil))
            let stderr = OutputTail.read(stderrFile)
            if case let .signaled(signal)? = termination, TrapParser.trapSignals.contains(signal) {
                throw .trapped(TrapParser.trap(signal: signal, stderr: stderr))
            }
            throw .harness("\(detail)\n\(stderr.suffix(2_000))")
        case let .refused(why):
            throw .harness("the target's ready line cannot be used: \(why)")
        case let .hung(seen):
            listeners.heard(.exited(powerCut: nil))
            throw .failed(.hung(AppEnd.Hang(during: nil, waitedMs: nil, endedBy: .caseTimeout, seen: seen)))
        case .interrupted:
            throw .interrupted
        }
    }

    /// Sends a request to the running worker and returns its reply.
    func request(_ body: WorkerRequest) throws(AppStop) -> WorkerReply {
        // The app's other process says which it is: "launch in peer".
        let what = (body.name ?? body.op.rawValue) + (role == "worker" ? "" : " in \(role)")
        guard let worker else { throw .harness("'\(what)' needs the app running: add a launch step before it") }
        if suspended { throw .harness("'\(what)' needs the app in the foreground, but it is suspended: add '- resume' before this step") }
        let asked = clock.now
        let deadline = stepBound.map { min(clock.deadline, asked + $0.bound(of: body.op)) } ?? clock.deadline
        switch worker.request(body, deadline: deadline, onEvent: { event in
            listeners.heard(.event(event))
            if event.event == .suspending { suspendWhileSaving(worker, lockedFile: event.key) }
        }) {
        case let .reply(reply):
            // Suspended holding a lock after it had answered: it is dead all the same.
            if systemEnd != nil {
                self.worker = nil
                _ = worker.waitForExit(deadline: clock.now + .seconds(2))
                leftBehind += worker.endGroup()
                throw ended(.signaled(SIGKILL), stderr: "", during: what, orderedCut: nil)
            }
            listeners.heard(.reply(reply))
            if !reply.answer.ok, body.op.isControl {
                throw .harness("the worker could not '\(body.op.rawValue)': \(reply.answer.failureText ?? "no reason given")")
            }
            if case let .failed(.target, error) = reply.answer {
                throw .harness("the target refused '\(what)': \(error ?? "no reason given")")
            }
            return reply
        case let .ended(termination):
            self.worker = nil
            leftBehind += worker.endGroup()
            let orderedCut: PowerLossOrder? = if case let .powerLoss(order) = body.ask { order } else { nil }
            throw ended(termination, stderr: worker.stderr, during: what, orderedCut: orderedCut)
        case .interrupted:
            self.worker = nil
            worker.kill()
            leftBehind += worker.endGroup()
            listeners.heard(.exited(powerCut: nil))
            throw .interrupted
        case let .hung(seen):
            self.worker = nil
            leftBehind += worker.endGroup()
            listeners.heard(.exited(powerCut: nil))
            // How long it waited, measured, and what ended the wait.
            throw .failed(.hung(AppEnd.Hang(during: what, waitedMs: (clock.now - asked).wholeMilliseconds,
                                            endedBy: deadline < clock.deadline ? .stepBound : .caseTimeout, seen: seen)))
        case let .brokeProtocol(why):
            self.worker = nil
            leftBehind += worker.endGroup()
            listeners.heard(.exited(powerCut: nil))
            throw .harness("the target broke the worker protocol during '\(what)': \(why)")
        }
    }

    /// What a worker's end means, published (the run is over) and returned.
    private func ended(_ termination: ChildProcess.Termination, stderr: String, during what: String,
                       orderedCut: PowerLossOrder?) -> AppStop {
        if let end = systemEnd {
            systemEnd = nil
            listeners.heard(.exited(powerCut: nil))
            return .failed(end)
        }
        if termination == .exited(PowerLoss.exitCode), let order = orderedCut ?? listeners.cutWaiting() {
            listeners.heard(.exited(powerCut: (order, what)))
            return .powerLost(order, during: what)
        }
        listeners.heard(.exited(powerCut: nil))
        if case let .signaled(signal) = termination, TrapParser.trapSignals.contains(signal) {
            return .trapped(TrapParser.trap(signal: signal, stderr: stderr))
        }
        return .failed(.exited(termination: "\(termination)", during: what))
    }

    /// Stops the app gracefully and waits for its worker to exit.
    func stop() throws(AppStop) {
        guard let worker else { return }
        _ = try request(WorkerRequest(.stop))
        let (termination, killed) = worker.waitForExit(deadline: min(clock.deadline, clock.now + .seconds(10)))
        self.worker = nil
        // The app is stopped: nothing it started may run on into the next launch.
        leftBehind += worker.endGroup()
        if killed {
            listeners.heard(.exited(powerCut: nil))
            if RunInterruption.requested { throw .interrupted }
            throw .failed(.stayedAfterStop)
        }
        if termination != .exited(0) { throw ended(termination, stderr: worker.stderr, during: "stop", orderedCut: nil) }
        listeners.heard(.exited(powerCut: nil))
    }

    /// Another worker of the same target on the same data folder (the peer of
    /// `Seams/Peer`): its own process, whose news no one hears.
    func sibling(role: String, listeners: Listeners = Listeners()) -> AppProcess {
        AppProcess(launcher: launcher, context: context, clock: clock, scratch: scratch, listeners: listeners, stepBound: stepBound, role: role)
    }

    /// Whether the running app holds the file at `path` (as it sees it) open; nil when
    /// it does not run or that cannot be known.
    func holdsOpen(_ path: String) -> Bool? {
        guard let open = worker?.openFiles else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return open.contains(path) || open.contains(resolved)
    }

    /// SIGKILL: the app dies on the spot (and a power loss it waited for with it), with
    /// everything it started.
    func kill() {
        if let worker {
            worker.kill()
            leftBehind += worker.endGroup()
            listeners.heard(.exited(powerCut: nil))
        }
        (worker, suspended) = (nil, false)
    }
}

/// Why the app stopped answering a request.
enum AppStop: Error {
    /// The power went out, as a power loss the case armed said it would.
    case powerLost(PowerLossOrder, during: String)
    /// The app trapped.
    case trapped(TrapRecord)
    /// The app hung or ended another way.
    case failed(AppEnd)
    /// Chaos itself failed.
    case harness(String)
    /// Ctrl-C.
    case interrupted
}

extension WorkerOperation {
    /// Operations of the harness rather than the app: a refusal is Chaos's failure.
    var isControl: Bool {
        switch self {
        case .describe, .arm, .disarm, .trackWrites, .powerLoss, .countPoints, .suspendWhileSaving, .peerWrite: true
        case .launch, .perform, .probe, .snapshot, .stop, .suspend, .resume: false
        }
    }
}
