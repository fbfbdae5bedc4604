import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ends processes with everything they started, and names what it ended.
///
/// Killing a process leaves its children running: they are re-parented (to the `chaos`
/// command, a subreaper, or to init) and live on; a helper that called `setsid` is out
/// of its parent's group, and its child would outlive a report that says "killed". So
/// the tree is frozen first, from the roots down: each process is stopped (SIGSTOP: a
/// stopped process forks no more), then the table is read for the children of the
/// stopped ones, which are stopped in turn, until a reading finds no new one. Only then
/// is everything frozen killed, and only what is seen to end within a bound is named —
/// a report says "killed" of nothing that is still running.
enum ProcessTree {
    /// Rounds of "stop, then look for children": a tree deeper than this is not frozen
    /// whole, and what is left of it is what a later look finds.
    static let maxDepth = 64

    /// Ends `roots` and all their descendants. Returns how the report names each process
    /// that ended, in the order found, leaving out the pids in `unnamed` (a worker the
    /// caller kills with its tree is not something the app left behind) and the Swift
    /// runtime's backtracer (``ProcessEntry/isSwiftBacktracer``: the runtime's). Processes
    /// re-parented to this one are reaped, unless this process spawned them (their
    /// owner reaps them).
    static func end(_ roots: [ProcessEntry], unnamed: Set<pid_t> = []) -> [String] {
        let frozen = freeze(roots.filter { !$0.isZombie })
        guard !frozen.isEmpty else { return [] }
        for entry in frozen { _ = kill(entry.pid, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(2)
        let me = getpid()
        let spawned = SpawnedChildren.all
        var named: [String] = []
        for entry in frozen {
            guard SpawnedChildren.awaitEnd(of: entry.pid, deadline: deadline) else { continue }
            if !unnamed.contains(entry.pid), !entry.isSwiftBacktracer { named.append(entry.description) }
            // Re-read: one whose parent was killed meanwhile was re-parented here.
            if ProcessTable.entry(entry.pid)?.parent == me, !spawned.contains(entry.pid) {
                var status: Int32 = 0
                while waitpid(entry.pid, &status, WNOHANG) < 0 && errno == EINTR {}
            }
        }
        return named
    }

    /// A process stopped, with how a report names it (read while it still runs: a
    /// killed process has no command line left to read).
    struct Frozen {
        var pid: pid_t
        var description: String
        var isSwiftBacktracer = false
    }

    /// Stops `roots`, then every descendant of a stopped process, until none is new.
    static func freeze(_ roots: [ProcessEntry]) -> [Frozen] {
        var frozen: [Frozen] = []
        var seen: Set<pid_t> = []
        var next = roots
        for _ in 0..<maxDepth where !next.isEmpty {
            for entry in next where seen.insert(entry.pid).inserted {
                frozen.append(Frozen(pid: entry.pid, description: ProcessTable.describe(entry), isSwiftBacktracer: entry.isSwiftBacktracer))
                _ = kill(entry.pid, SIGSTOP)
            }
            awaitStopped(next.map(\.pid))
            next = ProcessTable.entries().filter { !$0.isZombie && seen.contains($0.parent) && !seen.contains($0.pid) }
        }
        return frozen
    }

    /// Waits, for a moment at most, until each process is stopped or gone: a signal is
    /// delivered after `kill` returns, and a child forked before it lands must be in the
    /// next reading of the table.
    static func awaitStopped(_ pids: [pid_t]) {
        let deadline = ContinuousClock.now + .milliseconds(200)
        for pid in pids {
            while let state = ProcessTable.entry(pid)?.state, !["T", "t", "Z", "X"].contains(state), ContinuousClock.now < deadline {
                usleep(500)
            }
        }
    }
}
