import Foundation
@testable import Chaos
@testable import ChaosTarget

/// A real `chaos worker` under the clock seam, driven request by request: what a
/// clock case's workers are, without a scenario around them.
final class ClockWorker {
    let folder: TemporaryFolder
    let seam: FaketimeClock
    private(set) var session: WorkerSession?

    /// `environment` edits the worker's environment after the seam made it (to take
    /// the shim out, say); `before` moves the clock before the worker starts; a worker
    /// `forkedBy` a fork server of every clock case's command (``forkServer(in:)``).
    init(environment edit: (inout [String: String]) -> Void = { _ in },
         forkedBy server: ForkServer? = nil,
         before: (FaketimeClock) throws -> Void = { _ in }) throws {
        folder = try TemporaryFolder()
        let libraries = try FaketimeLibraries.locate().get()
        seam = try FaketimeClock(libraries: libraries, timestampFile: folder.url.appendingPathComponent("faketime.rc"))
        try before(seam)
        var command = seam.wrap(WorkerCommand.reference)
        edit(&command.environment)
        let context = TargetContext(dataDirectory: folder.url.appendingPathComponent("data"), variant: "hardened",
                                    options: [:], seed: 1)
        let start = try WorkerSession.start(command: command, context: context,
                                            stderrFile: folder.url.appendingPathComponent("stderr"),
                                            deadline: .now + .seconds(20), forkServer: server,
                                            willSpawn: { [seam] in try seam.workerStarting(at: $0) })
        guard case let .ready(session) = start else {
            seam.cleanUp()
            throw ClockWorkerError("the worker did not start: \(start)")
        }
        guard let process = session as? WorkerSession else { throw ClockWorkerError("not a worker process") }
        self.session = process
        seam.workerStarted(pid: process.process.pid)
        _ = try request(.launch)
    }

    deinit {
        if let session { _ = session.kill() }
        seam.cleanUp()
    }

    /// Whether the worker came from a fork server (not spawned anew after a failed fork).
    var wasForked: Bool { session?.process.forkServer != nil }

    /// A fork server of every clock case's worker command, its log in `folder`.
    static func forkServer(in folder: TemporaryFolder) throws -> ForkServer {
        let libraries = try FaketimeLibraries.locate().get()
        let any = try FaketimeClock(libraries: libraries, timestampFile: folder.url.appendingPathComponent("faketime.rc"))
        return try ForkServer(command: any.wrap(WorkerCommand.reference), log: folder.url.appendingPathComponent("server.stderr"))
    }

    /// One request; `within` bounds the wait (the worker is killed after it).
    func request(_ ask: WorkerRequest.Ask, within: Duration = .seconds(20)) throws -> WorkerReply {
        guard let session else { throw ClockWorkerError("the worker is gone") }
        let request = WorkerRequest(ask)
        switch session.request(request, deadline: .now + within, onEvent: { _ in }) {
        case let .reply(reply):
            guard reply.answer.ok else { throw ClockWorkerError("'\(request.name ?? request.op.rawValue)' failed: \(reply.answer.failureText ?? "?")") }
            return reply
        case let outcome:
            self.session = nil
            throw ClockWorkerError("no reply to '\(request.name ?? request.op.rawValue)' within \(within): \(outcome)")
        }
    }

    /// `clock.now`, as a date.
    func now() throws -> Date {
        guard case let .value(.string(text)) = try request(.probe("clock.now")).answer, let date = Self.iso.date(from: text) else {
            throw ClockWorkerError("clock.now is not an ISO-8601 date")
        }
        return date
    }

    /// `clock.sqlite-now`: SQLite's `datetime('now')`, as a date.
    func sqliteNow() throws -> Date {
        guard case let .value(.string(text)) = try request(.probe("clock.sqlite-now")).answer,
              let date = ClockFreezeFault.parseDate(text) else { throw ClockWorkerError("clock.sqlite-now is not a date") }
        return date
    }

    /// `clock.sleep`: how many milliseconds a `Task.sleep` of `ms` took in the worker.
    func sleep(ms: Int, within: Duration = .seconds(20)) throws -> Int {
        let answer = try request(.perform("clock.sleep", arguments: ["ms": .int(ms)]), within: within).answer
        guard case let .actionDone(.int(took)?, _) = answer else {
            throw ClockWorkerError("clock.sleep answered no duration")
        }
        return took
    }

    static var iso: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

struct ClockWorkerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
