import Foundation
import ChaosTarget

/// The files of a target's shared container (``ChaosTarget/sharedContainer``), as its
/// app sees them: each declared path with SQLite's companions, and what is under a
/// declared folder.
struct SharedContainer {
    /// Path → the file's logical name.
    private let names: [String: String]

    init(declaration: TargetDeclaration, dataDirectory: URL) {
        var names: [String: String] = [:]
        let folders = [dataDirectory.path, dataDirectory.resolvingSymlinksInPath().path]
        for name in declaration.sharedContainer {
            guard let relative = declaration.files[name] else { continue }
            for folder in folders {
                let path = folder + "/" + relative
                for suffix in ["", "-wal", "-shm", "-journal"] where names[path + suffix] == nil { names[path + suffix] = name }
            }
        }
        self.names = names
    }

    var isEmpty: Bool { names.isEmpty }

    /// The logical name of the shared file at `path`, nil for any other file.
    func name(of path: String) -> String? {
        if let name = names[path] { return name }
        return names.first { path.hasPrefix($0.key + "/") }?.value
    }
}

/// What a `suspend: while-saving` waits for in the running worker: its notice, and the
/// files whose locks it judges.
struct SuspensionPlan {
    var notice: Duration
    var shared: SharedContainer
}

/// Suspending the app as iOS does: the notice given (the worker's ``ChaosTarget/willSuspend()``),
/// the process stopped (SIGSTOP), the locks it holds then read from `/proc`; one on a file
/// of its shared container and it is killed (0xdead10cc), as a trap ends a case.
extension AppProcess {
    /// `suspend` now: tells the app, lets `notice` pass, stops it. Throws the system's
    /// end when it held a lock on a shared file; returns what was found otherwise, and
    /// the app stays stopped until ``resume()``.
    func suspend(notice: Duration, shared: SharedContainer) throws(AppStop) -> String {
        _ = try request(WorkerRequest(.suspend))
        clock.wait(notice)
        guard let worker else { throw .harness("the app ended during its notice") }
        guard let end = stopAndJudge(worker, shared: shared, during: "between two steps") else {
            suspended = true
            return suspensionRecords.last?.detail ?? "suspended"
        }
        self.worker = nil
        worker.kill()
        leftBehind += worker.endGroup()
        listeners.heard(.exited(powerCut: nil))
        throw .failed(end)
    }

    /// `resume`: the process continues (SIGCONT), and the app hears it is back.
    func resume() throws(AppStop) {
        guard let worker, suspended else { return }
        send(SIGCONT, to: worker.pid)
        suspended = false
        _ = try request(WorkerRequest(.resume))
    }

    /// The moment of a `suspend: while-saving`, told by the worker in the middle of a
    /// request: the notice passes, the process is stopped and judged; killed (its request
    /// then ends with ``systemEnd``) or continued at once.
    func suspendWhileSaving(_ worker: any WorkerLink, lockedFile: String?) {
        guard let plan = suspensionWaiting else { return }
        suspensionWaiting = nil
        clock.wait(plan.notice)
        let during = "while it saved" + (lockedFile.map { " (it took a write lock on \(URL(fileURLWithPath: $0).lastPathComponent))" } ?? "")
        if let end = stopAndJudge(worker, shared: plan.shared, during: during) {
            systemEnd = end
            send(SIGKILL, to: worker.pid)
        } else {
            send(SIGCONT, to: worker.pid)
        }
    }

    /// Stops the worker and reads its locks; the system's end when one is on a shared
    /// file (the worker is left to be killed), nil otherwise (it stays stopped).
    private func stopAndJudge(_ worker: any WorkerLink, shared: SharedContainer, during: String) -> AppEnd? {
        let pid = worker.pid
        send(SIGSTOP, to: pid)
        guard HeldLocks.waitUntilStopped(pid: pid) else { return nil }
        let locks = HeldLocks.of(pid: pid)
        let held = HeldLocks.blocking(locks).filter { shared.name(of: $0.path) != nil }
        let elsewhere = locks.filter { shared.name(of: $0.path) == nil }
        var detail = "stopped (SIGSTOP) \(during); "
        if let first = held.first, let name = shared.name(of: first.path) {
            detail += "it held \(first.words), a file of its shared container: killed (0xdead10cc)"
            record(detail, target: name)
            return .terminatedBySystem(file: name, lock: first.words)
        }
        detail += "it held no lock that keeps another process from writing its shared container"
        if let other = elsewhere.first { detail += " (it held \(other.words), outside it)" }
        record(detail, target: "the app")
        return nil
    }

    private func record(_ detail: String, target: String) {
        suspensionRecords.append(InjectionRecord(kind: "suspend", target: target, detail: detail, atMs: clock.elapsedMs,
                                                 mechanism: InjectionRecord.Mechanism.signal))
    }

    /// A `suspend: while-saving` whose moment never came, recorded as such.
    func noteSuspensionNeverCame() {
        guard suspensionWaiting != nil else { return }
        suspensionWaiting = nil
        record("never came: the app took no write lock on a file of its shared container after the step", target: "the app")
    }

    /// The suspensions recorded since the last call.
    func takeSuspensions() -> [InjectionRecord] {
        defer { suspensionRecords = [] }
        return suspensionRecords
    }
}

/// A signal to a process (the global `kill`, which ``AppProcess/kill()`` hides inside it).
private func send(_ signal: Int32, to pid: pid_t) {
    guard pid > 0 else { return }  // never a process group
    _ = kill(pid, signal)
}
