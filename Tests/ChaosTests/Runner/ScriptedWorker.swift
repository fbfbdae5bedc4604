import Foundation
@testable import Chaos
@testable import ChaosTarget

/// An app for the runner's unit tests, with no process: each request is answered by
/// a script, and every request is kept, so a test can see what the runner asked of
/// each launch.
///
/// Unchecked Sendable: every method takes `lock` before touching its state.
final class ScriptedApp: WorkerLauncher, @unchecked Sendable {
    /// What a request gets.
    enum Answer {
        case reply(WorkerReply)
        /// Event lines first, then the reply.
        case events([WorkerEvent], then: WorkerReply)
        /// The worker dies, leaving this on stderr.
        case dies(ChildProcess.Termination, stderr: String, events: [WorkerEvent] = [])
        case hangs
    }

    typealias Script = (_ launch: Int, _ request: WorkerRequest) -> Answer?

    private let lock = NSLock()
    private var script: Script
    private(set) var launches = 0
    /// Every request, with the launch (1-based) it went to.
    private(set) var requests: [(launch: Int, request: WorkerRequest)] = []
    let files: [String: String]

    init(files: [String: String] = ["store": "app.sqlite"], script: @escaping Script = { _, _ in nil }) {
        self.files = files
        self.script = script
    }

    /// The requests of one kind, in order, with their launch.
    func requests(_ op: WorkerOperation) -> [(launch: Int, request: WorkerRequest)] {
        lock.lock(); defer { lock.unlock() }
        return requests.filter { $0.request.op == op }
    }

    func start(_ context: TargetContext, stderrFile: URL, deadline: ContinuousClock.Instant) throws -> WorkerStart {
        lock.lock(); defer { lock.unlock() }
        launches += 1
        return .ready(ScriptedWorker(app: self, launch: launches))
    }

    fileprivate func answer(_ request: WorkerRequest, launch: Int) -> Answer {
        lock.lock(); defer { lock.unlock() }
        requests.append((launch, request))
        if let answer = script(launch, request) { return answer }
        switch request.ask {
        case .launch: return .reply(WorkerReply(id: request.id, .value(.map(["mode": .string("persistent")]))))
        case .snapshot: return .reply(WorkerReply(id: request.id, .snapshot([:])))
        case .probe("surfaced"): return .reply(WorkerReply(id: request.id, .value(.map(["severity": .string("none")]))))
        default: return .reply(WorkerReply(id: request.id, .done))
        }
    }
}

/// One launch of a ``ScriptedApp``.
final class ScriptedWorker: WorkerLink {
    private let app: ScriptedApp
    private let launch: Int
    private(set) var stderr = ""
    private var ended: ChildProcess.Termination?

    init(app: ScriptedApp, launch: Int) {
        self.app = app
        self.launch = launch
    }

    var ready: WorkerReady { WorkerReady(pid: 0, libcSeamMissing: nil) }
    var openFiles: Set<String>? { nil }
    /// No process: a suspension has nothing to stop.
    var pid: pid_t { 0 }

    func request(_ body: WorkerRequest, deadline: ContinuousClock.Instant, onEvent: (WorkerEvent) -> Void) -> WorkerOutcome {
        if let ended { return .ended(ended) }
        switch app.answer(body, launch: launch) {
        case var .reply(reply):
            reply.id = body.id
            if body.op == .stop { ended = .exited(0) }
            return .reply(reply)
        case let .events(events, then: reply):
            events.forEach(onEvent)
            return .reply(reply)
        case let .dies(termination, stderr, events):
            events.forEach(onEvent)
            self.stderr = stderr
            ended = termination
            return .ended(termination)
        case .hangs:
            ended = .signaled(SIGKILL)
            return .hung(nil)
        }
    }

    func waitForExit(deadline: ContinuousClock.Instant) -> (ChildProcess.Termination, killed: Bool) {
        (ended ?? .exited(0), false)
    }

    func kill() -> ChildProcess.Termination {
        ended = ended ?? .signaled(SIGKILL)
        return ended ?? .signaled(SIGKILL)
    }

    func endGroup() -> [String] { [] }
}

extension ScriptedApp {
    /// What the scripted app declares: its files.
    var declaration: TargetDeclaration { TargetDeclaration(files: files, actions: [], probes: []) }

    /// Runs `yaml` as a case against this app.
    func run(_ yaml: String, seed: UInt64? = nil) throws -> CaseReport {
        let target = TargetSelection(name: "/scripted", targetExec: "/scripted",
                                     worker: WorkerCommand(executable: "/nonexistent", arguments: [], environment: [:]),
                                     variant: "fixed", declaration: declaration)
        let options = RunOptions(target: target, seed: seed, keepScratch: false)
        var plan = CasePlan()
        plan.launcher = self
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "scripted.yaml", baseDirectory: nil)
        return CaseRunner(scenario: scenario, options: options, plan: plan).run()
    }
}

extension WorkerRequest {
    /// The fault an `arm` request carries: what a test of the runner looks at.
    var fault: ArmedFault? { if case let .arm(fault) = ask { fault } else { nil } }
}
