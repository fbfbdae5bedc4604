import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the workers of one case left running, found and ended.
///
/// A target may start processes of its own (a helper, a server, a shell's `sleep`),
/// and a misbehaving one leaves them behind: in the worker's process group (killed
/// with the group when the worker stops), in another group of its session, or in a
/// session of their own (`setsid`), re-parented when the worker died. Three marks find
/// them, as Jenkins' process-tree killer does with its cookie:
///
/// - every worker leads a session and a group of its own (``ChildProcess``);
/// - every worker of a case carries the case's mark in its environment
///   (`CHAOS_CASE=…`), which its descendants inherit unless they clear it;
/// - the `chaos` command is the child subreaper of its descendants
///   (``becomeSubreaper()``): an orphan is re-parented to it, not to init, and one that
///   is not a process it spawned itself is a worker's.
///
/// Only processes started after the case's first worker are considered. Each one found
/// is killed with everything it started (``ProcessTree``), reaped when it was
/// re-parented here, and named in the case's report once it has ended.
/// Unchecked Sendable: every mutable field is under `lock`.
package final class ProcessLeftovers: @unchecked Sendable {
    /// The environment variable of the case's mark.
    package static let markVariable = "CHAOS_CASE"
    /// The mark's value: unique to the case (its scratch folder's name).
    package let mark: String
    private let lock = NSLock()
    private var leaders: Set<pid_t> = []
    private var earliestStart: UInt64?
    private var named: [String] = []

    package init(mark: String) {
        self.mark = mark
    }

    /// What a worker of this case is started with.
    package var environmentEntry: (name: String, value: String) { (Self.markVariable, mark) }

    /// A worker of this case started: it leads its session and group.
    package func workerStarted(_ pid: pid_t) {
        let start = ProcessTable.entry(pid)?.startTicks
        lock.withLock {
            leaders.insert(pid)
            if let start { earliestStart = min(earliestStart ?? start, start) }
        }
    }

    /// Records processes already ended elsewhere (a stopped worker's group, killed by
    /// ``ChildProcess/endGroup()``), so the case's report names them.
    package func record(_ descriptions: [String]) {
        guard !descriptions.isEmpty else { return }
        lock.withLock { named += descriptions }
    }

    /// Every process of the case still running, killed (call when no worker of the case
    /// runs any more). Returns every process the case left, named once each.
    @discardableResult
    package func endAll() -> [String] {
        let (leaders, since) = lock.withLock { (self.leaders, earliestStart) }
        guard let since else { return lock.withLock { named } }
        let me = getpid()
        let subreaper = chaos_is_child_subreaper() != 0
        var found: [ProcessEntry] = []
        SpawnedChildren.withSpawnsHeld {
            let spawned = SpawnedChildren.all
            // Every worker of the case has ended: under a subreaper, whatever they left is a
            // child of this process now, and the children are all there is to look at (a
            // sweep does this once a trial); elsewhere the whole table is read.
            let candidates = subreaper ? ProcessTable.ownChildren() ?? ProcessTable.entries() : ProcessTable.entries()
            for entry in candidates where entry.pid != me && entry.startTicks >= since && !spawned.contains(entry.pid) {
                let orphan = subreaper && entry.parent == me
                if entry.isZombie {
                    // Ended on its own, re-parented here: only reaped.
                    if orphan { found.append(entry) }
                    continue
                }
                if leaders.contains(entry.session) || leaders.contains(entry.group) {
                    found.append(entry)
                    continue
                }
                // An orphan that carries another case's mark is that case's to name.
                let itsMark = ProcessTable.environmentValue(of: entry.pid, named: Self.markVariable)
                if itsMark == mark || (orphan && itsMark == nil) { found.append(entry) }
            }
        }
        // Each with everything it started: a helper that left the session has children
        // of its own, which its death would hand to init.
        let descriptions = ProcessTree.end(found.filter { !$0.isZombie })
        Self.reap(found.filter(\.isZombie))
        return lock.withLock {
            named += descriptions
            return named
        }
    }

    /// Reaps the orphans re-parented here that had already ended on their own.
    private static func reap(_ entries: [ProcessEntry]) {
        let me = getpid()
        for entry in entries {
            guard ProcessTable.entry(entry.pid)?.parent == me else { continue }
            var status: Int32 = 0
            while waitpid(entry.pid, &status, WNOHANG) < 0 && errno == EINTR {}
        }
    }

    /// Kills the processes a controller killed with SIGKILL left behind: those whose
    /// case mark names a scratch folder of a controller that is gone. Returns their pids.
    @discardableResult
    package static func endAbandoned() -> [pid_t] {
        var ended: [pid_t] = []
        for entry in ProcessTable.entries() where !entry.isZombie && entry.pid != getpid() {
            guard let mark = ProcessTable.environmentValue(of: entry.pid, named: markVariable),
                  let owner = ScratchFolder.owner(of: mark), owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
            if kill(entry.pid, SIGKILL) == 0 { ended.append(entry.pid) }
        }
        return ended
    }

    /// Makes this process the child subreaper of what it starts (the `chaos` command
    /// does, at its start): a worker's orphan comes back here to be found and reaped.
    /// Not done in a test process, whose other children are not ours to judge.
    package static func becomeSubreaper() {
        _ = chaos_become_child_subreaper()
    }
}
