import CProcessControl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The controller's hold on its children beyond one child's pipes: which processes it
/// spawned (a subreaper's orphans are the others), what a child's group left behind,
/// and waits on any process's end.
extension ChildProcess {
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

    /// Spawns happen one at a time under it: the pipes of one child must not leak into
    /// another spawned meanwhile, and a child must be registered before a scan for
    /// orphans can see it.
    static let spawnLock = NSLock()

    /// After the child ended: what is left of its process group (descendants that outlived
    /// it, holding its output open or not), ended with everything they started, gone
    /// before the next launch and the case's last look for leftovers. Returns how a
    /// report names each process ended since the last call: these, and those
    /// ``killTree()`` ended with the child.
    package func endGroup() -> [String] {
        let earlier = lock.withLock {
            defer { endedWithIt = [] }
            return endedWithIt
        }
        guard kill(-pid, 0) == 0 else { return earlier }
        let members = ProcessTable.entries().filter { $0.group == pid && $0.pid != pid && !$0.isZombie }
        return earlier + ProcessTree.end(members)
    }

    /// Waits until process `pid` has ended (a zombie or gone) or `deadline` passes,
    /// without reaping it. True when it ended.
    static func awaitEnd(of pid: pid_t, deadline: ContinuousClock.Instant) -> Bool {
        let descriptor = chaos_pidfd_open(pid)
        defer { if descriptor >= 0 { close(descriptor) } }
        while true {
            if descriptor < 0, ProcessTable.entry(pid)?.isZombie ?? true { return true }
            let remaining = deadline - .now
            guard remaining > .zero else { return false }
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = descriptor >= 0 ? poll(&watched, 1, remaining.pollTimeout(cap: 200)) : poll(nil, 0, 5)
            if descriptor >= 0, ready > 0 { return true }
        }
    }

    // MARK: - The controller's own children

    private static let liveChildren = Mutex<Set<pid_t>>([])

    /// Children this process spawned and has not reaped yet: a process re-parented to a
    /// subreaper controller that is not one of them is a worker's orphan.
    package static var spawnedChildren: Set<pid_t> { liveChildren.withLock { $0 } }

    static func register(_ pid: pid_t) { liveChildren.withLock { _ = $0.insert(pid) } }
    static func unregister(_ pid: pid_t) { liveChildren.withLock { _ = $0.remove(pid) } }

    /// Holds spawns back while `body` runs: a child spawned meanwhile could be taken for
    /// an orphan before it is registered.
    static func withSpawnsHeld<Value>(_ body: () -> Value) -> Value {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        return body()
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
