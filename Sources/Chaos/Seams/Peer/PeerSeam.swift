import ChaosTarget
import Foundation

/// Another process of the app on its shared store (``FaultFamily/peer``: a widget, an
/// extension, a background task): a second worker of the target on the same data folder,
/// started at the case's first peer fault, which takes the store's write lock on a
/// connection of its own (``PeerWriteOrder``) as that process writing would — for a while
/// (`peer-holds-write`), or until it is killed in the middle of a write it never commits
/// (`peer-killed-mid-write`); or migrates it as a newer version of the app would
/// (`peer-migrates`). Its locks are real POSIX locks in another process: the
/// app meets them as it meets its widget's.
final class PeerSeam: FaultSeam {
    private var peer: AppProcess?
    /// What each fault's step saw happen, by id.
    private var seen: [String: String] = [:]

    func carries(_ fault: AnyFault) -> Bool { fault.family == .peer }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let (name, file) = Self.sharedStore(of: context.declaration) else {
            throw .notApplicable("another process of the app opens a SQLite store of its shared container, and the target declares "
                + (context.declaration.sharedContainer.isEmpty ? "no shared container (sharedContainer)" : "no SQLite store in it"))
        }
        guard let plan = (step.fault.base as? any PeerFault)?.plan else { throw .harness("'\(step.fault.kind)' is not a peer fault") }
        let peer = try running(context)
        let order = PeerWriteOrder(file: file, holdMs: plan.holding?.wholeMilliseconds, dirty: plan.uncommitted, migrate: plan.migrates)
        do { _ = try peer.request(WorkerRequest(.peerWrite(order))) } catch {
            self.peer = nil
            peer.kill()
            // SQLite refused the other process (a full disk, a store it cannot open): the
            // world stopped the fault, which then had no effect; anything else is Chaos's.
            guard case let .harness(why) = error, why.contains(PeerWriteRefusal.marker) else {
                throw .harness("the peer worker could not write: \(error)")
            }
            seen[id] = nil
            return .ok(why.components(separatedBy: ": ").dropFirst().joined(separator: ": "))
        }
        var done = plan.migrates ? "the peer migrated \(name) as a newer version would (a table of its own, user_version + 1, a migration the app does not know)"
            : "the peer took the write lock of \(name)"
        if plan.uncommitted { done += ", wrote 128 pages it did not commit" }
        if plan.killed {
            peer.kill()
            self.peer = nil
            done += ", and was killed (SIGKILL)"
        } else if let holding = plan.holding {
            done += " for \(ScenarioDuration.format(holding))"
        }
        seen[id] = done
        context.ledger.update(id) { $0.fired = 1 }
        context.record(InjectionRecord(kind: step.fault.kind, target: name, detail: done, atMs: context.clock.elapsedMs,
                                       mechanism: InjectionRecord.Mechanism.peer))
        return .ok(done)
    }

    /// The peer's faults end by themselves: nothing to clear.
    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] { [] }

    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        seen[activity.id].map { FaultEffect(hadEffect: true, summary: $0) }
            ?? FaultEffect(hadEffect: false, summary: "no effect: the peer never took the lock")
    }

    func tearDown() {
        peer?.kill()
        peer = nil
    }

    /// The peer worker, started on the first peer fault.
    private func running(_ context: SeamContext) throws(CaseEnd) -> AppProcess {
        if let peer, peer.isRunning { return peer }
        let started = context.app.process.sibling(role: "peer")
        do { try started.start() } catch {
            throw .harness("the peer worker did not start: \(error)")
        }
        peer = started
        return started
    }

    /// The store another process writes: the shared container's `store`, else its first
    /// file by name that is not one of SQLite's companions (`-wal`, `-shm`, `-journal`);
    /// nil without SQLite or a shared container.
    static func sharedStore(of declaration: TargetDeclaration) -> (name: String, file: String)? {
        guard declaration.sqliteLibraries > 0 else { return nil }
        let stores = declaration.sharedContainer.sorted().compactMap { name in
            declaration.files[name].map { (name: name, file: $0) }
        }.filter { store in !["-wal", "-shm", "-journal"].contains { store.file.hasSuffix($0) } }
        return stores.first { $0.name == "store" } ?? stores.first
    }
}
