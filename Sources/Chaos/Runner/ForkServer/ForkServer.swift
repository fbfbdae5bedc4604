import CForkServer
import ChaosTarget
import Foundation

/// A worker that forks the next workers (AFL's fork server), the controller's side.
///
/// It is started once, as a normal worker with `--fork-server` and a socket for stdin
/// (``WorkerForkServer`` is its other side); every launch then asks it for a fork with
/// the launch's arguments and the two ends of the new worker's pipes. The forked
/// worker is a worker like any other — its own process group, its stdout read to end of
/// file, its stderr a file — except that its exit is reaped by the server, which says
/// how it ended.
///
/// Unchecked Sendable: the socket is written under the state's lock, and every other
/// mutable field lives in ``State``, read and written under its lock.
package final class ForkServer: @unchecked Sendable {
    /// The worker command it forks, so a launch with another command is not sent here.
    package let command: WorkerCommand
    /// When its process started: the start of every forked worker's process too (what
    /// libfaketime in a worker counts its clock from).
    package let startedAt: Date
    private let socket: Int32
    private let serverPID: pid_t
    private let state = State()
    private let spawning = NSLock()

    /// What the reader thread and the callers share. Unchecked Sendable: under `lock`.
    private final class State: @unchecked Sendable {
        let lock = NSCondition()
        var replies: [String] = []
        var exits: [pid_t: Int32] = [:]
        var open = true
        var readerDone = false
        var closed = false
        var usable = true
    }

    /// False once a fork failed: its launches are spawned as usual from then on.
    package var isUsable: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.usable && state.open
    }

    private var lock: NSCondition { state.lock }

    /// Starts the server and waits until it is ready.
    package init(command: WorkerCommand, log: URL, timeout: Duration = .seconds(10)) throws {
        self.command = command
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw ChaosError.spawnFailed("socketpair: \(String(cString: strerror(errno)))")
        }
        socket = pair[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        ChildSpawn.closeEverythingAbove2(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ChildSpawn.ownSessionDefaultSignals(&attributes)
        var pid: pid_t = 0
        let environment = command.spawnEnvironment
        startedAt = Date()
        let result = SpawnedChildren.withSpawnsHeld {
            let result = ChildSpawn.spawn(command.executable, command.arguments + [WorkerForkServer.flag], environment,
                                            &actions, &attributes, pid: &pid)
            if result == 0 { SpawnedChildren.register(pid) }
            return result
        }
        close(pair[1])
        guard result == 0 else {
            close(socket)
            throw ChaosError.spawnFailed("\(command.executable): \(String(cString: strerror(result)))")
        }
        serverPID = pid
        let (socket, state) = (socket, state)
        Thread { Self.readMessages(socket: socket, state: state) }.start()
        guard let first = nextReply(deadline: .now + timeout), first == "ready" else {
            shutDown()
            throw ChaosError.spawnFailed("the fork server did not start (see \(log.path))")
        }
    }

    deinit {
        shutDown()
    }

    /// Forks a worker with `arguments`, its stdin and stdout the given pipe ends, its
    /// stderr written to `stderrPath`. Returns its pid.
    package func spawn(arguments: [String], stdin: Int32, stdout: Int32, stderrPath: String,
                       deadline: ContinuousClock.Instant) throws -> pid_t {
        // One spawn at a time, from the order to its reply: waiting for the reply lets go
        // of `lock`, and a second order in flight could take the first one's pid.
        spawning.lock()
        defer { spawning.unlock() }
        lock.lock()
        defer { lock.unlock() }
        guard state.open else { throw ChaosError.spawnFailed("the fork server is gone") }
        var payload = Data(stderrPath.utf8) + [0]
        for argument in arguments { payload += Data(argument.utf8) + [0] }
        let sent = payload.withUnsafeBytes { chaos_fork_server_send(socket, $0.baseAddress, $0.count, stdin, stdout) }
        guard sent == 0 else { throw ChaosError.spawnFailed("fork server: \(String(cString: strerror(sent)))") }
        guard let reply = nextReplyLocked(deadline: deadline) else { throw ChaosError.spawnFailed("the fork server did not answer") }
        let words = reply.split(separator: " ")
        guard words.count == 2, words[0] == "spawned", let pid = pid_t(words[1]) else {
            state.usable = false
            let code = words.count == 2 ? Int32(words[1]) ?? EIO : EIO
            throw ChaosError.spawnFailed("the fork server could not fork: \(String(cString: strerror(code)))")
        }
        return pid
    }

    /// How the forked worker `pid` ended: waits for the server's word until `deadline`
    /// (nil: not at all). Nil when it has not ended (or nothing more can be known).
    package func termination(of pid: pid_t, until deadline: ContinuousClock.Instant?) -> ChildProcess.Termination? {
        lock.lock()
        defer { lock.unlock() }
        while state.exits[pid] == nil, state.open, let deadline, deadline > .now {
            _ = lock.wait(until: Date(timeIntervalSinceNow: (deadline - .now).inSeconds))
        }
        guard let status = state.exits.removeValue(forKey: pid) else { return state.open ? nil : .exited(-1) }
        return (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// The next reply to a spawn (or "ready"), waiting until `deadline`. Call under `lock`.
    private func nextReplyLocked(deadline: ContinuousClock.Instant) -> String? {
        while state.replies.isEmpty && state.open && deadline > .now {
            _ = lock.wait(until: Date(timeIntervalSinceNow: max(0, (deadline - .now).inSeconds)))
        }
        return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }

    private func nextReply(deadline: ContinuousClock.Instant) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return nextReplyLocked(deadline: deadline)
    }

    /// Closes the socket: the server's loop ends and it exits; its children, whose
    /// controller end closes with the pipes, end on end of input.
    package func shutDown() {
        lock.lock()
        let first = !state.closed
        state.closed = true
        state.open = false
        lock.broadcast()
        lock.unlock()
        guard first else { return }
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
        lock.lock()
        while !state.readerDone { lock.wait() }
        lock.unlock()
        close(socket)
        // It exits on its socket's end; one that does not (a target that never spoke the
        // protocol) is killed with its group after a bound.
        if !SpawnedChildren.awaitEnd(of: serverPID, deadline: .now + .seconds(2)) {
            _ = kill(-serverPID, SIGKILL)
            _ = kill(serverPID, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(serverPID, &status, 0) < 0 && errno == EINTR {}
        SpawnedChildren.unregister(serverPID)
        // A server under libfaketime made its /dev/shm objects; one killed leaves them.
        FaketimeClock.removeSharedObjects(of: serverPID)
    }

    /// The reader thread: replies to spawns in order, and exits as they come.
    private static func readMessages(socket: Int32, state: State) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            state.lock.lock()
            defer { state.lock.broadcast(); state.lock.unlock() }
            guard count > 0 else {
                state.open = false
                state.readerDone = true
                return
            }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            let words = message.split(separator: " ")
            if words.count == 3, words[0] == "exit", let pid = pid_t(words[1]), let status = Int32(words[2]) {
                state.exits[pid] = status
            } else {
                state.replies.append(message)
            }
        }
    }
}
