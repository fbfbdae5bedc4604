import Foundation
import ChaosTarget

/// One worker process: one launch of the app under test.
///
/// The controller speaks to it in JSON lines, one request and one reply, each bounded
/// by a deadline. When the worker ends unexpectedly the session says how: a trap (with
/// the runtime's message and backtrace from stderr), another signal, or an exit code.
final class WorkerSession: WorkerLink {
    let process: ChildProcess
    let ready: WorkerReady
    let stderrFile: URL
    private var nextID = 1
    /// The pool's place of its case (nil outside a pool), given up while a request waits.
    var slot: TrialSlot?

    private init(process: ChildProcess, ready: WorkerReady, stderrFile: URL) {
        self.process = process
        self.ready = ready
        self.stderrFile = stderrFile
    }

    /// The longest ready line or declaration a target may write: names, not data. Past
    /// it the worker is refused (a declaration of 10,000 names of a megabyte each would
    /// cost the controller gigabytes).
    static let maxDeclarationBytes = 1 << 20

    /// Starts a worker and waits for its ready line. `mark` (``ProcessLeftovers``) goes
    /// into its environment, so what it starts can be found.
    static func start(command: WorkerCommand, context: TargetContext, stderrFile: URL,
                      deadline: ContinuousClock.Instant, forkServer: ForkServer? = nil,
                      mark: (name: String, value: String)? = nil, willSpawn: (_ processStart: Date) throws -> Void = { _ in },
                      started: (pid_t) -> Void = { _ in }) throws -> WorkerStart {
        let arguments = context.workerArguments
        var launch = command.perLaunch
        if let mark { launch.environment[mark.name] = mark.value }
        if let sites = TrapSymbolizer.shared.knownSites(for: command) { launch.environment[KnownTrapSites.variable] = sites }
        var forked: ChildProcess?
        if let forkServer {
            // A forked worker's process (its libfaketime, its clock) started with the server.
            try willSpawn(forkServer.startedAt)
            forked = try? ChildProcess(forkedBy: forkServer, arguments: launch.forkArguments + arguments,
                                       stderrFile: stderrFile, deadline: deadline)
        }
        let process: ChildProcess
        if let forked {
            process = forked
        } else {
            try willSpawn(Date())
            process = try ChildProcess(executable: command.executable, arguments: command.arguments + arguments,
                                       environment: command.spawnEnvironment.merging(launch.environment) { $1 },
                                       folders: launch.folders, stderrFile: stderrFile)
        }
        started(process.pid)
        process.maxLineBytes = maxDeclarationBytes
        defer { process.maxLineBytes = ChildProcess.defaultMaxLineBytes }
        let refuse = { (detail: String) -> WorkerStart in
            process.killAndReap()
            return .refused(detail)
        }
        switch process.readLine(deadline: deadline) {
        case let .line(line):
            guard let ready = WorkerReady.read(line) else {
                process.killAndReap()
                return .failed(nil, stderrFile: stderrFile,
                               detail: "the worker's first line was not a ready event: \(TerminalText.clean(String(line.prefix(200))))")
            }
            if let mismatch = WorkerProtocolVersion.mismatch(ready.protocol) { return refuse(mismatch) }
            return .ready(WorkerSession(process: process, ready: ready, stderrFile: stderrFile))
        case .invalidUTF8:
            return refuse("the worker's ready line is not UTF-8")
        case let .tooLong(length):
            return refuse("the worker's ready line is longer than \(maxDeclarationBytes >> 20) MiB (\(length) bytes and no end): "
                + "it says the worker's pid, not data")
        case .endOfFile:
            // It closed its output: it is ending, or it lives on with nothing more to say.
            let (termination, killed) = process.waitForExit(deadline: deadline)
            if killed, RunInterruption.requested { return .interrupted }
            if killed { return .hung("the worker closed its output before it was ready and did not exit") }
            return .failed(termination, stderrFile: stderrFile, detail: "the worker ended before it was ready (\(termination))")
        case .timedOut:
            let termination = process.killAndReap()
            if RunInterruption.requested { return .interrupted }
            return .failed(termination, stderrFile: stderrFile, detail: "the worker was not ready before the deadline")
        }
    }

    /// Sends one request and waits for its reply until `deadline`. Event lines that
    /// come before the reply (acknowledged writes) go to `onEvent` as they arrive.
    func request(_ body: WorkerRequest, deadline: ContinuousClock.Instant,
                 onEvent: (WorkerEvent) -> Void) -> WorkerOutcome {
        var request = body
        request.id = nextID
        nextID += 1
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(request), let line = String(data: data, encoding: .utf8) else {
            return .ended(.exited(-1))
        }
        _ = process.writeLine(line)
        let decoder = JSONDecoder()
        // A request the worker keeps unanswered while it waits itself (on a socket, a lock,
        // a timer: little CPU over a slice of time) lets the pool start another trial
        // meanwhile; a worker at work keeps its place.
        var readUntil = slot == nil ? deadline : min(deadline, ContinuousClock.now + TrialSlot.waitingAfter)
        var sliceStart = slot == nil ? nil : ProcessTable.entry(process.pid).map { (ContinuousClock.now, cpuTicks: $0.cpuTicks) }
        defer { slot?.working() }
        while true {
            switch process.readLine(deadline: readUntil) {
            case let .line(text):
                switch WorkerLine(text, answering: request.id, decoder: decoder) {
                case let .event(event): onEvent(event)
                case let .reply(reply): return .reply(reply)
                case let .broke(problem): return broke(problem)
                case .other: continue  // not a protocol line: stderr holds diagnostics
                }
            case .invalidUTF8:
                continue
            case let .tooLong(length):
                return broke("the worker wrote a line longer than \(process.maxLineBytes >> 20) MiB (\(length) bytes and no end) "
                    + "while answering; set CHAOS_MAX_LINE_MB if its snapshots are really that large")
            case .endOfFile:
                // A worker that closed its output is ending (a trap's backtrace takes a
                // moment), or lives on with nothing more to say: waited for until the deadline.
                let (termination, killed) = process.waitForExit(deadline: deadline)
                guard killed else { return .ended(termination) }
                if RunInterruption.requested { return .interrupted }
                return .hung("the worker closed its output and did not exit")
            case .timedOut:
                if RunInterruption.requested { return .interrupted }
                if readUntil < deadline {
                    readUntil = nextRead(deadline: deadline, slice: &sliceStart)
                    continue
                }
                process.killAndReap()
                return .hung(nil)
            }
        }
    }

    /// Ends the worker that broke the protocol, saying how.
    private func broke(_ problem: String) -> WorkerOutcome {
        process.killAndReap()
        return .brokeProtocol(problem)
    }

    /// Until when a pool's trial reads a request's answer next: the deadline, once the
    /// worker kept it waiting over the last slice while all but idle (the trial gives its
    /// place up: ``TrialSlot/isWaiting(cpuTicks:over:)``); else the end of a new slice.
    private func nextRead(deadline: ContinuousClock.Instant, slice: inout (ContinuousClock.Instant, cpuTicks: UInt64)?) -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        guard let cpuTicks = ProcessTable.entry(process.pid)?.cpuTicks else { return deadline }
        if let (start, startTicks) = slice, TrialSlot.isWaiting(cpuTicks: cpuTicks - min(cpuTicks, startTicks), over: now - start) {
            slot?.waiting()
            return deadline
        }
        slice = (now, cpuTicks)
        return min(deadline, now + TrialSlot.waitingAfter)
    }

    /// What asking the target what it declares came to.
    enum Described {
        case declared(TargetDeclaration)
        /// What it declared is not something Chaos can use: the target's author has to fix it.
        case refused(String)
        /// It did not answer.
        case failed(String)
    }

    /// What the target is made of, asked once (`describe`): an answer of at most 1 MiB, in
    /// UTF-8, whose every name a report can print as it is.
    func describe(deadline: ContinuousClock.Instant) -> Described {
        process.maxLineBytes = Self.maxDeclarationBytes
        defer { process.maxLineBytes = ChildProcess.defaultMaxLineBytes }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(WorkerRequest(.describe)) else { return .failed("cannot encode describe") }
        _ = process.writeLine(String(decoding: data, as: UTF8.self))
        while true {
            switch process.readLine(deadline: deadline) {
            case let .line(text):
                guard !WorkerLine.isEvent(text) else { continue }
                let reply: WorkerReply
                do {
                    reply = try JSONDecoder().decode(WorkerReply.self, from: Data(text.utf8))
                } catch {
                    // Not a protocol line: stderr's business, passed over. A declaration that
                    // does not read is the target's to fix.
                    guard text.contains(#""declaration""#) else { continue }
                    return .refused("its declaration cannot be read: \(TerminalText.clean(String(String(describing: error).prefix(300))))")
                }
                guard reply.id == 0 else { continue }
                guard case let .declaration(declaration) = reply.answer else {
                    return .refused("it does not answer describe with its declaration" + (reply.answer.failureText.map { ": \($0)" } ?? ""))
                }
                if let problem = declaration.nameProblem { return .refused(problem) }
                return .declared(declaration)
            case .invalidUTF8:
                return .refused("its declaration is not UTF-8: its names would be mangled in every report")
            case let .tooLong(length):
                return .refused("its declaration is longer than \(Self.maxDeclarationBytes >> 20) MiB (\(length) bytes and no end): "
                    + "a declaration names files, actions and probes, not data")
            case .endOfFile:
                return .failed("it ended before it said what it declares")
            case .timedOut:
                return .failed("it did not say what it declares before the deadline")
            }
        }
    }

    func waitForExit(deadline: ContinuousClock.Instant) -> (ChildProcess.Termination, killed: Bool) {
        process.waitForExit(deadline: deadline)
    }

    /// SIGKILL to the worker and everything it started (the `kill` step, a hang); what
    /// that ended is named by ``endGroup()``.
    @discardableResult
    func kill() -> ChildProcess.Termination {
        return process.killAndReap()
    }

    func endGroup() -> [String] {
        process.endGroup()
    }

    var pid: pid_t { process.pid }

    /// The files the worker holds open, from `/proc/PID/fd` (paths as the worker sees
    /// them, which inside a tmpfs namespace are the app's own paths).
    var openFiles: Set<String>? {
        let folder = "/proc/\(process.pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) })
    }

    /// The end of the worker's stderr so far (``OutputTail``).
    var stderr: String {
        OutputTail.read(stderrFile)
    }
}

/// How to start a worker: a target executable (a user's, or a command that hosts a
/// target, with the arguments that say so: `chaos worker`).
package struct WorkerCommand: Sendable {
    package var executable: String
    /// Arguments before the ones the runner adds (`--data`, `--variant`, `--seed`, `--option`).
    package var arguments: [String]
    package var environment: [String: String]
    /// What differs from one launch to the next (one case's and another's): not part of
    /// what a fork server starts with, so one server forks for every case.
    package var perLaunch = PerLaunch()

    /// Variables a launch sets over ``environment``, and folders its worker finds open at
    /// given descriptors (a clock case's folder: libfaketime in a forked worker reads the
    /// timestamp file through `/proc/self/fd/N/…`, the path its fork server started with).
    package struct PerLaunch: Sendable, Equatable {
        package var environment: [String: String] = [:]
        package var folders: [Int32: String] = [:]

        package init() {}

        /// The same, as arguments a fork server's child reads (``WorkerForkServer``).
        var forkArguments: [String] {
            environment.sorted { $0.key < $1.key }.flatMap { [WorkerForkServer.environmentFlag, "\($0.key)=\($0.value)"] }
                + folders.sorted { $0.key < $1.key }.flatMap { [WorkerForkServer.folderFlag, "\($0.key)=\($0.value)"] }
        }
    }

    package init(executable: String, arguments: [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// The environment a worker runs with: the controller's, plus the backtracer's
    /// setting (``Backtracer``): it never waits for a debugger on a terminal, and it
    /// names a trap's site in a statically linked worker too.
    package static func workerEnvironment(base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["SWIFT_BACKTRACE"] = Backtracer.setting(environment: base)
        return environment
    }

    /// What a worker process is started with: ``environment`` with the libc seam
    /// preloaded (``LibcSeamLibrary``). Added when a worker starts, not when the command
    /// is made: a command that never starts one (`chaos validate`, `chaos list`) never
    /// builds the seam.
    package var spawnEnvironment: [String: String] { LibcSeamLibrary.preloading(environment) }

    /// The same worker, its traps named (`symbolicate`) or only counted.
    package func symbolicating(_ symbolicate: Bool) -> WorkerCommand {
        var copy = self
        copy.environment["SWIFT_BACKTRACE"] = Backtracer.setting(symbolicate: symbolicate, environment: environment)
        return copy
    }
}
