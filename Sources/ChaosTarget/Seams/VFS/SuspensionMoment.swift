internal import CChaosVFS
import Foundation
import Synchronization

/// The moment a `suspend: while-saving` step comes, in the app's process: when the app
/// next takes a write lock on a file of its shared container (SQLite's RESERVED lock on
/// the store, or the WAL's write lock), as iOS suspends an app in the middle of a save.
///
/// At that moment the fault VFS tells the controller (a `suspending` event) and gives
/// the app its notice — ``ChaosTarget/willSuspend()`` on a thread of its own — before
/// the lock call goes on. From then on the app's writes, syncs and truncations of its
/// shared files wait until the process is continued (SIGCONT): a save the app did not
/// abandon is still in progress, its lock held, when the controller stops the process
/// and reads its locks. Once continued, ``ChaosTarget/didResume()`` and the writes go on.
/// Nothing here fails a call: the verdict is what the controller read in `/proc`.
package enum SuspensionMoment {
    private struct State {
        /// The shared files' paths while armed (each with SQLite's companions).
        var armed: Set<String>?
        /// Between the moment and the continue: the shared files' writes wait.
        var suspended: Set<String>?
    }

    private struct Hooks: Sendable {
        var willSuspend: @Sendable () -> Void
        var didResume: @Sendable () -> Void
        var emit: @Sendable (WorkerEvent) -> Void
    }

    private static let state = Mutex(State())
    private static let hooks = Mutex<Hooks?>(nil)
    private static let continued = NSCondition()
    /// Whether a moment is armed or under way: the VFS's hook must stay installed.
    private static let active = Atomic<Bool>(false)

    package static var isActive: Bool { active.load(ordering: .acquiring) }

    /// Arms the moment for the files at `paths` (as the app opens them); returns false
    /// when there is none to watch.
    package static func arm(paths: [String], willSuspend: @escaping @Sendable () -> Void, didResume: @escaping @Sendable () -> Void,
                            emit: @escaping @Sendable (WorkerEvent) -> Void) -> Bool {
        let watched = Set(paths.flatMap { path in
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            return [path, resolved].flatMap { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }
        })
        guard !watched.isEmpty else { return false }
        ContinueSignal.install { resumed() }
        hooks.withLock { $0 = Hooks(willSuspend: willSuspend, didResume: didResume, emit: emit) }
        state.withLock { $0.armed = watched }
        active.store(true, ordering: .releasing)
        StorageHook.watchForSuspension()
        return true
    }

    /// The VFS's call `op` on `path`: the moment, a write that waits, or nothing.
    static func see(op: Int32, path: String, offset: Int64, amount: Int32) {
        let takesWriteLock = (op == CHAOS_OP_LOCK && amount >= 2) || (op == CHAOS_OP_SHM_LOCK && offset == 0)
        let writes = op == CHAOS_OP_WRITE || op == CHAOS_OP_SYNC || op == CHAOS_OP_TRUNCATE
        guard takesWriteLock || writes else { return }
        enum Seen { case nothing, moment, wait }
        let seen: Seen = state.withLock { state in
            if takesWriteLock, let armed = state.armed, armed.contains(path) {
                (state.suspended, state.armed) = (armed, nil)
                return .moment
            }
            return writes && state.suspended?.contains(path) == true ? .wait : .nothing
        }
        switch seen {
        case .nothing: return
        case .moment: notice(path)
        case .wait:
            continued.lock()
            while state.withLock({ $0.suspended?.contains(path) == true }) { continued.wait() }
            continued.unlock()
        }
    }

    /// Tells the controller, then gives the app its notice; the lock call goes on once
    /// the app has heard (or after 5 s: an app that does not answer its notice in time
    /// is suspended all the same).
    private static func notice(_ path: String) {
        guard let hooks = hooks.withLock({ $0 }) else { return }
        hooks.emit(WorkerEvent(event: .suspending, key: path))
        let heard = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            hooks.willSuspend()
            heard.signal()
        }
        _ = heard.wait(timeout: .now() + 5)
    }

    /// The process was continued: the writes go on, and the app hears it is back.
    private static func resumed() {
        let wasSuspended = state.withLock { state in
            defer { state.suspended = nil }
            return state.suspended != nil
        }
        guard wasSuspended else { return }
        active.store(state.withLock { $0.armed != nil }, ordering: .releasing)
        StorageHook.watchForSuspension()
        continued.lock()
        continued.broadcast()
        continued.unlock()
        hooks.withLock { $0 }?.didResume()
    }
}

/// SIGCONT, heard on a thread of its own: the handler only posts a semaphore (what a
/// signal handler may do), the thread does the rest.
private enum ContinueSignal {
    nonisolated(unsafe) static let semaphore: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()

    private static let installed = Mutex(false)

    static func install(_ heard: @escaping @Sendable () -> Void) {
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        _ = semaphore
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in sem_post(ContinueSignal.semaphore) }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGCONT, &action, nil)
        Thread.detachNewThread {
            while true {
                if sem_wait(semaphore) == 0 { heard() }
            }
        }
    }
}
