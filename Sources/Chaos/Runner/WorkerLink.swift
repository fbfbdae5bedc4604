import Foundation
import ChaosTarget

/// One launch of the app, as the runner talks to it: requests and replies, and how it
/// ends. ``WorkerSession`` is the real one, a worker process; a test gives the runner
/// an app of its own through ``WorkerLauncher``, with no process at all.
protocol WorkerLink: AnyObject {
    /// The worker's first line: which seams reached this process.
    var ready: WorkerReady { get }
    /// Sends one request and waits for its reply until `deadline`. Event lines that
    /// come before the reply go to `onEvent` as they arrive.
    func request(_ body: WorkerRequest, deadline: ContinuousClock.Instant,
                 onEvent: (WorkerEvent) -> Void) -> WorkerOutcome
    /// Waits for the worker to exit after a `stop` reply; kills it at `deadline`.
    func waitForExit(deadline: ContinuousClock.Instant) -> (ChildProcess.Termination, killed: Bool)
    /// Kills it, with everything it started.
    @discardableResult
    func kill() -> ChildProcess.Termination
    /// After it ended: what is left of its process group, killed, and what was ended
    /// with it, named.
    func endGroup() -> [String]
    /// What it wrote to stderr so far: the runtime's trap message and backtrace.
    var stderr: String { get }
    /// The files it has open now (their paths as it sees them); nil when that cannot be known.
    var openFiles: Set<String>? { get }
    /// Its process id: what a suspension stops and reads the locks of.
    var pid: pid_t { get }
}

/// How one request to a worker went.
enum WorkerOutcome {
    case reply(WorkerReply)
    /// The worker died before replying.
    case ended(ChildProcess.Termination)
    /// No reply by the deadline, and what was seen (nil: nothing); the worker was killed.
    case hung(String?)
    /// The worker broke the protocol (a line past the limit); it was killed.
    case brokeProtocol(String)
    /// Ctrl-C while waiting; the worker is still running.
    case interrupted
}

/// Starts the workers of a case.
protocol WorkerLauncher {
    /// Starts one worker for `context` and waits for its ready line until `deadline`.
    func start(_ context: TargetContext, stderrFile: URL, deadline: ContinuousClock.Instant) throws -> WorkerStart
}

/// What starting a worker came to.
enum WorkerStart {
    case ready(any WorkerLink)
    case failed(ChildProcess.Termination?, stderrFile: URL, detail: String)
    /// Its ready line is one Chaos cannot use: too long, not UTF-8, another version of the
    /// protocol. It was killed. The target's author has to fix it.
    case refused(String)
    /// It closed its output before it was ready but lived on, until the deadline: killed.
    case hung(String)
    /// Ctrl-C while it started; it was killed.
    case interrupted
}

/// The real launcher: a worker process from a ``WorkerCommand``, with the case's
/// seams wrapped around it (a private mount namespace, libfaketime) and told of each
/// start.
struct ProcessWorkerLauncher: WorkerLauncher {
    var command: WorkerCommand
    /// Called just before a worker is spawned (with when its process started: now, or its
    /// fork server's start), and with its pid once it is ready.
    var willStart: (_ processStart: Date) throws -> Void = { _ in }
    var didStart: (pid_t) -> Void = { _ in }
    /// Where a worker of this command may come from a fork server (sweeps).
    var forkServers: ForkServerPool?
    /// What finds what the case's workers leave running (``ProcessLeftovers``).
    var leftovers: ProcessLeftovers?
    /// The pool's place of the case, given up while a worker keeps a request waiting.
    var slot: TrialSlot?

    func start(_ context: TargetContext, stderrFile: URL, deadline: ContinuousClock.Instant) throws -> WorkerStart {
        let start = try WorkerSession.start(command: command, context: context, stderrFile: stderrFile, deadline: deadline,
                                            forkServer: forkServers?.server(for: command), mark: leftovers?.environmentEntry,
                                            willSpawn: willStart, started: { pid in leftovers?.workerStarted(pid) })
        if case let .ready(session) = start, let process = session as? WorkerSession {
            process.slot = slot
            didStart(process.process.pid)
        }
        return start
    }
}
