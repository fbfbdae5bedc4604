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

    private init(process: ChildProcess, ready: WorkerReady, stderrFile: URL) {
        self.process = process
        self.ready = ready
        self.stderrFile = stderrFile
    }

    /// Starts a worker and waits for its ready line.
    static func start(command: WorkerCommand, context: TargetContext, stderrFile: URL,
                      deadline: ContinuousClock.Instant, forkServer: ForkServer? = nil) throws -> WorkerStart {
        var arguments = command.arguments + [
            "--data", context.dataDirectory.path, "--variant", context.variant, "--seed", String(context.seed),
        ]
        for (key, value) in context.options.sorted(by: { $0.key < $1.key }) {
            arguments += ["--option", "\(key)=\(value)"]
        }
        let process: ChildProcess
        if let forkServer, let forked = try? ChildProcess(forkedBy: forkServer, arguments: Array(arguments.dropFirst(command.arguments.count)),
                                                          stderrFile: stderrFile, deadline: deadline) {
            process = forked
        } else {
            process = try ChildProcess(executable: command.executable, arguments: arguments,
                                       environment: command.spawnEnvironment, stderrFile: stderrFile)
        }
        switch process.readLine(deadline: deadline) {
        case let .line(line):
            guard let data = line.data(using: .utf8),
                  let ready = try? JSONDecoder().decode(WorkerReady.self, from: data), ready.event == "ready" else {
                process.killGroup()
                _ = process.waitForExit()
                return .failed(nil, stderrFile: stderrFile, detail: "the worker's first line was not a ready event: \(line.prefix(200))")
            }
            return .ready(WorkerSession(process: process, ready: ready, stderrFile: stderrFile))
        case .endOfFile:
            let termination = process.waitForExit()
            return .failed(termination, stderrFile: stderrFile, detail: "the worker ended before it was ready (\(termination))")
        case .timedOut:
            process.killGroup()
            let termination = process.waitForExit()
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
        while true {
            switch process.readLine(deadline: deadline) {
            case let .line(text):
                guard let data = text.data(using: .utf8) else { continue }
                // Lines are written with sorted keys: an event starts with its "event" key
                // (deciding by a failed decode costs more than the decode itself).
                if text.hasPrefix(#"{"event""#) {
                    if let event = try? decoder.decode(WorkerEvent.self, from: data) { onEvent(event) }
                } else if let reply = try? decoder.decode(WorkerReply.self, from: data), reply.id == request.id {
                    return .reply(reply)
                }
                // Anything else is not a protocol line: ignored; stderr holds diagnostics.
            case .endOfFile:
                return .ended(process.waitForExit())
            case .timedOut:
                if RunInterruption.requested { return .interrupted }
                process.killGroup()
                _ = process.waitForExit()
                return .hung
            }
        }
    }

    func waitForExit(deadline: ContinuousClock.Instant) -> (ChildProcess.Termination, killed: Bool) {
        process.waitForExit(deadline: deadline)
    }

    /// SIGKILL to the worker's process group (the `kill` step, a hang).
    @discardableResult
    func kill() -> ChildProcess.Termination {
        process.killGroup()
        return process.waitForExit()
    }

    /// The files the worker holds open, from `/proc/PID/fd` (paths as the worker sees
    /// them, which inside a tmpfs namespace are the app's own paths).
    var openFiles: Set<String>? {
        let folder = "/proc/\(process.pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) })
    }

    /// The worker's stderr so far.
    var stderr: String {
        (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
    }
}

/// How to start a worker: the built-in one (`chaos worker`) or a user's target executable.
package struct WorkerCommand: Sendable {
    package var executable: String
    /// Arguments before the ones the runner adds (`--data`, `--variant`, `--seed`, `--option`).
    package var arguments: [String]
    package var environment: [String: String]
    /// What reports call the target: `built-in` or the executable's path.
    package var targetName: String

    package init(executable: String, arguments: [String], environment: [String: String], targetName: String) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.targetName = targetName
    }

    /// The subcommand of the `chaos` executable that hosts the built-in target.
    package static let builtInSubcommand = "worker"

    /// The built-in worker: `chaos worker`, run from the `chaos` executable at `chaos`.
    package static func builtIn(chaos: String) -> WorkerCommand {
        WorkerCommand(executable: chaos, arguments: [builtInSubcommand], environment: workerEnvironment(),
                      targetName: RunInfo.builtInTarget)
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
