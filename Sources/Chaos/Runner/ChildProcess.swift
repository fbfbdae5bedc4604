import Foundation
#if canImport(Glibc)
import Glibc
import ChaosTarget
#endif

/// A child process in its own process group, with a pipe to its stdin, a pipe from
/// its stdout, and its stderr written whole to a file.
///
/// Built on `posix_spawn` rather than Foundation's `Process` because the runner needs
/// what `Process` does not give: a new process group (so a hung worker is killed with
/// everything it started), the raw wait status (to tell SIGILL from SIGKILL), and reads
/// with a deadline.
///
/// Unchecked Sendable: every mutable field is read and written under `lock` (a
/// timeout path may kill the child from another thread); the descriptors are plain ints.
package final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        package var description: String {
            switch self {
            case let .exited(code): "exit \(code)"
            case let .signaled(signal): "signal \(signal) (\(ChildProcess.signalName(signal)))"
            }
        }
    }

    package let pid: pid_t
    package let stderrFile: URL
    private var stdinFD: Int32
    private var stdoutFD: Int32
    private var buffer = [UInt8]()
    /// Bytes of `buffer` already searched for a newline: long lines (a snapshot of
    /// 100,000 records is megabytes) are scanned once, not once per chunk.
    private var scanned = 0
    private var termination: Termination?
    /// The fork server that made this child, which reaps it and says how it ended; nil
    /// for a child this process spawned (and reaps) itself.
    private let forkServer: ForkServer?
    // Guards every mutable field: the runner may kill from a timeout path.
    private let lock = NSLock()
    private static let spawnLock = NSLock()

    /// Starts `executable` with `arguments` and exactly `environment`.
    package init(executable: String, arguments: [String], environment: [String: String], stderrFile: URL) throws {
        self.stderrFile = stderrFile
        forkServer = nil
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // With cases running in parallel, another thread's child must never inherit
        // these ends, or this worker's end of output would not be seen when it dies:
        // creating the pipes, marking them close-on-exec and spawning happen under one
        // lock (Glibc's module does not export pipe2).
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        guard pipe(&toChild) == 0 else {
            throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var pid: pid_t = 0

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addclose(&actions, toChild[0])
        posix_spawn_file_actions_addclose(&actions, fromChild[1])
        // Nothing else of this process reaches the child. SwiftNIO's sockets are not
        // close-on-exec: a worker that inherited the fault proxy's listening socket kept
        // the port open after `network-down` closed it (connections hung instead of
        // being refused), and one that inherited a connection kept its close from ever
        // reaching the peer.
        Self.closeEverythingAbove2(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.ownGroupDefaultSignals(&attributes)

        let result = Self.spawn(executable, arguments, environment, &actions, &attributes, pid: &pid)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw ChaosError.spawnFailed("\(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        stdinFD = toChild[1]
        stdoutFD = fromChild[0]
    }

    /// Forks a worker through `server` with `arguments` (the server's own command's).
    package init(forkedBy server: ForkServer, arguments: [String], stderrFile: URL, deadline: ContinuousClock.Instant) throws {
        self.stderrFile = stderrFile
        forkServer = server
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        Self.spawnLock.lock()
        guard pipe(&toChild) == 0 else {
            Self.spawnLock.unlock()
            throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            Self.spawnLock.unlock()
            throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        Self.spawnLock.unlock()
        defer {
            close(toChild[0])
            close(fromChild[1])
        }
        do {
            pid = try server.spawn(arguments: arguments, stdin: toChild[0], stdout: fromChild[1], stderrPath: stderrFile.path,
                                   deadline: deadline)
        } catch {
            close(toChild[1])
            close(fromChild[0])
            throw error
        }
        stdinFD = toChild[1]
        stdoutFD = fromChild[0]
    }

    deinit {
        killGroup()
        _ = waitForExit()
        closeFDs()
    }

    /// Writes one line to the child's stdin. False when the child is gone.
    @discardableResult
    package func writeLine(_ line: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard stdinFD >= 0 else { return false }
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                Glibc.write(stdinFD, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// What `readLine(deadline:)` found.
    package enum LineResult: Sendable, Equatable {
        case line(String)
        case endOfFile
        case timedOut
    }

    /// Reads one line from the child's stdout, waiting until `deadline` at most.
    package func readLine(deadline: ContinuousClock.Instant) -> LineResult {
        lock.lock(); defer { lock.unlock() }
        let clock = ContinuousClock()
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                scanned = 0
                return .line(line)
            }
            scanned = buffer.count
            guard stdoutFD >= 0 else { return .endOfFile }
            let remaining = deadline - clock.now
            if remaining <= .zero { return .timedOut }
            // In slices: a Ctrl-C handled on another thread does not interrupt this poll.
            let timeoutMs = remaining.pollTimeout(cap: 200)
            var descriptor = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMs)
            if ready < 0 {
                // Ctrl-C ends the wait early (the caller checks why); other signals don't.
                if errno == EINTR { if RunInterruption.requested { return .timedOut } else { continue } }
                return .endOfFile
            }
            if ready == 0 {
                if RunInterruption.requested { return .timedOut }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(stdoutFD, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                close(stdoutFD); stdoutFD = -1
            } else if count == 0 {
                close(stdoutFD); stdoutFD = -1
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// Closes the child's stdin: a well-behaved worker exits on end of input.
    package func closeInput() {
        lock.lock(); defer { lock.unlock() }
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    /// SIGKILL to the whole process group: the worker and anything it started.
    package func killGroup(signal: Int32 = SIGKILL) {
        lock.lock(); defer { lock.unlock() }
        guard termination == nil else { return }
        _ = kill(-pid, signal)
        _ = kill(pid, signal)
    }

    /// Waits for the child to end and returns how. Blocks; call after the child was
    /// told to stop, saw end of output, or was killed.
    package func waitForExit() -> Termination {
        lock.lock(); defer { lock.unlock() }
        if let termination { return termination }
        if let forkServer {
            let result = forkServer.termination(of: pid, until: .now + .seconds(30)) ?? .exited(-1)
            termination = result
            return result
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                // Already reaped elsewhere: nothing more can be known.
                termination = .exited(-1)
                return .exited(-1)
            }
        }
        let result: Termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        termination = result
        return result
    }

    /// The child's exit, if it has already ended (never blocks).
    package func pollExit() -> Termination? {
        lock.lock(); defer { lock.unlock() }
        if let termination { return termination }
        if let forkServer {
            termination = forkServer.termination(of: pid, until: nil)
            return termination
        }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        guard reaped == pid else { return nil }
        let result: Termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        termination = result
        return result
    }

    /// Waits until the child ends or `deadline` passes; kills the group at the deadline.
    package func waitForExit(deadline: ContinuousClock.Instant) -> (Termination, killed: Bool) {
        // End of its stdout is the event: a child that exits closes it.
        while case .line = readLine(deadline: deadline) {}
        if let done = pollExit() { return (done, false) }
        if ContinuousClock().now < deadline {
            // Output closed but the process lingers a moment: waitpid blocks only briefly.
            return (waitForExit(), false)
        }
        killGroup()
        return (waitForExit(), true)
    }

    private func closeFDs() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
    }

    /// The conventional name of a signal number.
    package static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGSEGV: "SIGSEGV"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGPIPE: "SIGPIPE"
        default: "signal \(signal)"
        }
    }
}
