import ChaosTarget

/// The faults carried out in the app's own process: fault points in its code (the
/// `FaultRegistry`) and its storage calls (the fault VFS, or the libc seam). The
/// controller keeps each as the ``ArmedFault`` the worker is armed with, updated with
/// where its trigger stands after every reply, and arms every new launch with them as
/// they stand, so `after` and `times` count over the whole case, across relaunches.
final class ProcessSeam: FaultSeam {
    private(set) var armed: [ArmedFault] = []
    /// What the workers said about the seams that reach the target's files.
    var storage: StorageFacts

    init(sqliteLibraries: Int) {
        storage = StorageFacts(sqliteLibraries: sqliteLibraries)
    }

    func carries(_ fault: AnyFault) -> Bool {
        fault.base is any InProcessFault
    }

    func inject(_ step: FaultStep, id: String, seed: UInt64, in context: SeamContext) throws(CaseEnd) -> StepResult {
        guard let fault = step.fault.base as? any InProcessFault else { throw .harness("'\(step.fault.kind)' is not carried in the app's process") }
        if step.ifAbsent == .skip, let storageFault = fault as? any StorageFault,
           let missing = storage.missingOperations(storageFault, step: step) {
            throw .notApplicable(missing)
        }
        let fresh = ArmedFault(id: id, fault: fault, trigger: step.trigger, seed: seed)
        armed.append(fresh)
        if context.app.isRunning, try context.app.ask(WorkerRequest(.arm(fresh))) == nil {
            return StepResult(.powerLost, "the power went out")
        }
        let seam = fault is any StorageFault ? (storage.seam(of: step) == .libc ? "the libc seam" : "the fault VFS") : "the fault point registry"
        return .armed(in: seam, step)
    }

    /// The faults a new launch is armed with: those still able to fire.
    var forLaunch: [ArmedFault] {
        armed.filter { !$0.counter.isExhausted($0.trigger) }
    }

    func launched(clean: Bool, in context: SeamContext) throws(CaseEnd) -> Bool {
        guard !clean else { return false }
        let standing = forLaunch
        for fault in standing { _ = try context.app.ask(WorkerRequest(.arm(fault))) }
        return !standing.isEmpty
    }

    func clear(_ scope: ClearScope, in context: SeamContext) throws(CaseEnd) -> [String] {
        let cleared = armed.filter { context.ledger.scope(scope, covers: $0.id) }
        armed.removeAll { fault in cleared.contains { $0.id == fault.id } }
        // A power cut during a disarm ends the run: the step loop sees the power out.
        for fault in cleared where context.app.isRunning {
            if try context.app.ask(WorkerRequest(.disarm(fault.id))) == nil { break }
        }
        return cleared.map(\.fault.kind)
    }

    /// A worker's ready line says whether the libc seam got in; a reply, where each fault
    /// stands and what the storage seams reach; a firing, as it happened, is an injection.
    func heard(_ news: AppNews, atMs: Int, ledger: FaultLedger) -> [InjectionRecord] {
        switch news {
        case let .ready(ready):
            storage.libcSeamMissing = ready.libcSeamMissing
        case let .reply(reply):
            update(reply.status.faults ?? [], ledger: ledger)
            if let reach = reply.status.reach { storage.reach = reach }
        case let .event(event):
            if let firing = event.firing { return [injection(for: firing, atMs: atMs, ledger: ledger)] }
        case .exited:
            break
        }
        return []
    }

    /// Where each fault stands, as a worker's reply says.
    func update(_ standings: [FaultStanding], ledger: FaultLedger) {
        for standing in standings {
            guard let index = armed.firstIndex(where: { $0.id == standing.id }) else { continue }
            armed[index] = armed[index].resumed(at: standing)
            ledger.update(standing.id) { activity in
                activity.hits = standing.counter.hits
                activity.fired = standing.counter.fired
            }
        }
    }

    /// A firing the worker reported as it happened: its record for the report, and the
    /// fault's counts brought at least that far.
    func injection(for firing: FaultFiring, atMs: Int, ledger: FaultLedger) -> InjectionRecord {
        if let index = armed.firstIndex(where: { $0.id == firing.id }) {
            armed[index].counter = armed[index].counter.atLeast(hits: firing.hit, fired: firing.fired)
        }
        ledger.update(firing.id) { activity in
            activity.hits = max(activity.hits ?? 0, firing.hit)
            activity.fired = max(activity.fired, firing.fired)
            if let seam = firing.seam { activity.seam = seam.rawValue }
        }
        let mechanism = firing.seam.map { $0 == .libc ? InjectionRecord.Mechanism.libc : InjectionRecord.Mechanism.vfs }
            ?? InjectionRecord.Mechanism.faultPoint
        return InjectionRecord(kind: firing.kind, target: firing.target, detail: "\(firing.detail) at hit \(firing.hit)",
                               atMs: atMs, count: firing.hit, mechanism: mechanism)
    }

    /// From its counts: a point never reached, a storage call that never came, a trigger
    /// that never fired had no effect.
    func effect(of activity: FaultActivity, step: FaultStep) -> FaultEffect {
        let (fired, hits) = (activity.fired, activity.hits ?? 0)
        if let point = (step.fault.base as? any PointFault)?.point {
            if fired > 0 { return FaultEffect(hadEffect: true, summary: "fired \(fired) time\(fired == 1 ? "" : "s") in \(hits) hit\(hits == 1 ? "" : "s") of \(point)") }
            if hits == 0 { return FaultEffect(hadEffect: false, summary: "no effect: the point \(point) was never reached") }
            return FaultEffect(hadEffect: false, summary: "no effect: \(point) was hit \(hits) time\(hits == 1 ? "" : "s"), its trigger (\(step.trigger.label)) never fired")
        }
        if fired > 0 { return FaultEffect(hadEffect: true, summary: "fired on \(fired) of \(max(hits, fired)) matching operation\(hits == 1 ? "" : "s")") }
        if hits == 0, let unreached = storage.whyUnreached(step) { return FaultEffect(hadEffect: false, summary: "no effect: " + unreached) }
        if hits == 0 { return FaultEffect(hadEffect: false, summary: "no effect: no operation it fails happened (\(activity.label))") }
        return FaultEffect(hadEffect: false, summary: "no effect: \(hits) matching operation\(hits == 1 ? "" : "s"), its trigger (\(step.trigger.label)) never fired")
    }
}
