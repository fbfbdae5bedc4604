import CProcessControl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The controller's own children: which processes it spawned and has not reaped (a
/// subreaper's orphans are the others), the lock its spawns take one at a time, and
/// waits on any process's end.
enum SpawnedChildren {
    /// Spawns happen one at a time under it: the pipes of one child must not leak into
    /// another spawned meanwhile, and a child must be registered before a scan for
    /// orphans can see it.
    static let spawnLock = NSLock()

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

    private static let liveChildren = Mutex<Set<pid_t>>([])

    /// Children this process spawned and has not reaped yet: a process re-parented to a
    /// subreaper controller that is not one of them is a worker's orphan.
    package static var all: Set<pid_t> { liveChildren.withLock { $0 } }

    static func register(_ pid: pid_t) { liveChildren.withLock { _ = $0.insert(pid) } }
    static func unregister(_ pid: pid_t) { liveChildren.withLock { _ = $0.remove(pid) } }

    /// Holds spawns back while `body` runs: a child spawned meanwhile could be taken for
    /// an orphan before it is registered.
    static func withSpawnsHeld<Value>(_ body: () -> Value) -> Value {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        return body()
    }
}
