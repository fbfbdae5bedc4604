import CProcessControl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import ChaosTarget
#endif

/// A child process in a session and process group of its own, with a pipe to its
/// stdin, a pipe from its stdout, and its stderr written whole to a file.
///
/// Built on `posix_spawn` rather than Foundation's `Process` because the runner needs
/// what `Process` does not give: a new session (so a hung worker is killed with
/// everything it started, and what it started can still be found when it left the
/// group: ``ProcessLeftovers``), the raw wait status (to tell SIGILL from SIGKILL), and
/// reads and waits with a deadline. Nothing a child does makes a wait unbounded or the
/// controller's memory grow without limit: a line is at most ``maxLineBytes``, and
/// a child that closed its output but lives on is waited for until a deadline, then
/// killed.
///
/// Unchecked Sendable: every mutable field is read and written under `lock` (a
/// timeout path may kill the child from another thread); the descriptors are plain ints.
/// How the child ends, and the waits for it, are in `ChildProcess+Exit.swift`.
package final class ChildProcess: @unchecked Sendable {
    package let pid: pid_t
    package let stderrFile: URL
    private var stdinFD: Int32
    var stdoutFD: Int32
    var lines = LineBuffer(maxLineBytes: ChildProcess.defaultMaxLineBytes)
    var termination: Termination?
    /// Becomes readable when the child ends (a pidfd); -1 where the kernel has none.
    var exitFD: Int32 = -1
    /// The longest line the child may write; past it, ``readLine(deadline:)`` says
    /// `tooLong` and reads no more (a target printing with no newline would otherwise
    /// grow the controller without bound).
    package var maxLineBytes: Int {
        get { lock.withLock { lines.maxLineBytes } }
        set { lock.withLock { lines.maxLineBytes = newValue } }
    }
    /// The fork server that made this child, which reaps it and says how it ended; nil
    /// for a child this process spawned (and reaps) itself.
    let forkServer: ForkServer?
    // Guards every mutable field: the runner may kill from a timeout path.
    let lock = NSLock()
    /// What ``killTree()`` ended besides the child, named, until ``endGroup()`` hands it on.
    var endedWithIt: [String] = []

    /// Starts `executable` with `arguments` and exactly `environment`, each of `folders`
    /// open at its descriptor. With an `outputFile`, its stdout goes there (a server's
    /// log) and nothing is read from it.
    package init(executable: String, arguments: [String], environment: [String: String], folders: [Int32: String] = [:],
                 stderrFile: URL, outputFile: URL? = nil) throws {
        self.stderrFile = stderrFile
        forkServer = nil
        // With cases running in parallel, another thread's child must never inherit
        // these ends, or this worker's end of output would not be seen when it dies:
        // making the pipes and spawning happen under one lock.
        SpawnedChildren.spawnLock.lock()
        defer { SpawnedChildren.spawnLock.unlock() }
        let (toChild, fromChild) = try ChildSpawn.makePipes()
        var pid: pid_t = 0

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        if let outputFile {
            posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addclose(&actions, toChild[0])
        posix_spawn_file_actions_addclose(&actions, fromChild[1])
        // Nothing else of this process reaches the child. SwiftNIO's sockets are not
        // close-on-exec: a worker that inherited the fault proxy's listening socket kept
        // the port open after `network-down` closed it (connections hung instead of
        // being refused), and one that inherited a connection kept its close from ever
        // reaching the peer.
        ChildSpawn.closeEverythingAbove2(&actions)
        for (descriptor, folder) in folders {
            posix_spawn_file_actions_addopen(&actions, descriptor, folder, O_RDONLY | O_DIRECTORY, 0)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ChildSpawn.ownSessionDefaultSignals(&attributes)

        let result = ChildSpawn.spawn(executable, arguments, environment, &actions, &attributes, pid: &pid)
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
        if outputFile != nil { close(stdoutFD); stdoutFD = -1 }
        exitFD = chaos_pidfd_open(pid)
        SpawnedChildren.register(pid)
    }

    /// Forks a worker through `server` with `arguments` (the server's own command's).
    package init(forkedBy server: ForkServer, arguments: [String], stderrFile: URL, deadline: ContinuousClock.Instant) throws {
        self.stderrFile = stderrFile
        forkServer = server
        let (toChild, fromChild) = try SpawnedChildren.spawnLock.withLock { try ChildSpawn.makePipes() }
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
        exitFD = chaos_pidfd_open(pid)
    }

    deinit {
        killTree()
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

    /// Reads one line from the child's stdout, waiting until `deadline` at most.
    package func readLine(deadline: ContinuousClock.Instant) -> LineResult {
        lock.lock(); defer { lock.unlock() }
        let clock = ContinuousClock()
        while true {
            if let next = lines.next() {
                if case .tooLong = next, stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
                return next
            }
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
                lines.append(chunk[..<count])
            }
        }
    }

    /// Closes the child's stdin: a well-behaved worker exits on end of input.
    package func closeInput() {
        lock.lock(); defer { lock.unlock() }
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    /// SIGKILL to the child and everything it started: its process group, and every
    /// descendant that left the group (``ProcessTree``). What of that ended, the child
    /// aside, is kept for ``endGroup()`` to name.
    package func killTree() {
        lock.lock(); defer { lock.unlock() }
        guard termination == nil else { return }
        let group = ProcessTable.entries().filter { $0.group == pid || $0.pid == pid }
        endedWithIt += ProcessTree.end(group, unnamed: [pid])
        // Whatever joined the group after it was read (nothing can, once it is frozen).
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
    }

    /// ``killTree()``, then the child's end once it came.
    @discardableResult
    package func killAndReap() -> Termination {
        killTree()
        return waitForExit()
    }

    private func closeFDs() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
        if exitFD >= 0 { close(exitFD); exitFD = -1 }
    }
}
