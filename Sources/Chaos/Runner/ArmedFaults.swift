import ChaosTarget

/// The controller's list of the faults a case armed, by id, and what each did.
///
/// In-process faults (storage, point) are kept as the ``ArmedFault`` the worker is
/// armed with, updated with the progress each reply brings; a new launch is armed
/// with them as they stand, so `after` and `times` count over the whole case. Every
/// fault step, whatever its seam, has a ``FaultActivity``.
final class ArmedFaults {
    private(set) var inProcess: [ArmedFault] = []
    private(set) var activities: [FaultActivity] = []
    /// The step of every id armed, for clearing by kind and for its effect.
    private var steps: [String: FaultStep] = [:]
    /// What the workers said about the seams that reach the target's files.
    var storage = StorageFacts()

    /// Notes a fault step; returns the fault to arm in the app when it runs in the app's process.
    func arm(_ step: FaultStep, id: String, seed: UInt64) -> ArmedFault? {
        steps[id] = step
        activities.append(FaultActivity(id: id, kind: step.fault.kind, label: step.fault.label))
        guard let fault = step.fault.base as? any InProcessFault else { return nil }
        let armed = ArmedFault(id: id, fault: fault, trigger: step.trigger, seed: seed)
        inProcess.append(armed)
        return armed
    }

    /// The faults a new launch is armed with: those still able to fire.
    var forLaunch: [ArmedFault] {
        inProcess.filter { !$0.counter.isExhausted($0.trigger) }
    }

    /// A worker's report of where its faults stand.
    func update(_ progress: [FaultProgress]) {
        for report in progress {
            guard let index = inProcess.firstIndex(where: { $0.id == report.id }) else { continue }
            inProcess[index] = inProcess[index].resumed(at: report)
            update(report.id) { activity in
                activity.hits = report.counter.hits
                activity.fired = report.counter.fired
            }
        }
    }

    /// A firing the worker reported as it happened: its record for the report, and
    /// the fault's counts brought at least that far.
    func injection(for firing: FaultFiring, atMs: Int) -> InjectionRecord {
        if let index = inProcess.firstIndex(where: { $0.id == firing.id }) {
            inProcess[index].counter = inProcess[index].counter.atLeast(hits: firing.hit, fired: firing.fired)
        }
        update(firing.id) { activity in
            activity.hits = max(activity.hits ?? 0, firing.hit)
            activity.fired = max(activity.fired, firing.fired)
        }
        if let seam = firing.seam { update(firing.id) { $0.seam = seam.rawValue } }
        return InjectionRecord(kind: firing.kind, target: firing.target, detail: "\(firing.detail) at hit \(firing.hit)",
                               atMs: atMs, count: firing.hit, mechanism: mechanism(of: firing))
    }

    private func mechanism(of firing: FaultFiring) -> String {
        guard FaultCatalog.kind(named: firing.kind)?.family == .storage else { return InjectionRecord.Mechanism.faultPoint }
        return firing.seam == .libc ? InjectionRecord.Mechanism.libc : InjectionRecord.Mechanism.vfs
    }

    /// Changes the activity of `id`.
    func update(_ id: String, _ change: (inout FaultActivity) -> Void) {
        guard let index = activities.lastIndex(where: { $0.id == id }) else { return }
        change(&activities[index])
    }

    /// Notes an activity that is not a fault step (a power loss).
    func note(_ activity: FaultActivity) {
        activities.append(activity)
    }

    /// The kind armed under `id`, if any.
    func kind(of id: String) -> String? { steps[id]?.fault.kind }

    /// Every activity with its effect: measured by its seam (file damage), else worked
    /// out from its counts (``FaultEffects``). A clock change bites when an app runs after it.
    func withEffects(clockReached: Set<String>) -> [FaultActivity] {
        activities.map { activity in
            guard activity.hadEffect == nil else { return activity }
            var measured = activity
            if steps[activity.id]?.fault.family == .clock {
                let reached = clockReached.contains(activity.id)
                measured.hadEffect = reached
                measured.effect = reached ? "the app ran with its clock moved" : "no effect: no app ran after the clock moved"
            } else if steps[activity.id].map({ ($0.fault.base as? any StorageFault)?.seam == .tmpfs }) == true {
                measured.hadEffect = true
                measured.effect = "filled the app's disk"
            } else {
                if measured.seam == nil, let step = steps[activity.id], step.fault.family == .storage {
                    measured.seam = storage.seam(of: step).rawValue
                }
                (measured.hadEffect, measured.effect) = FaultEffects.measure(activity, step: steps[activity.id], storage: storage)
            }
            return measured
        }
    }

    /// Forgets the in-process faults `scope` names; returns their ids (to disarm in a running app).
    func clear(_ scope: ClearScope) -> [String] {
        let cleared = inProcess.filter { armed in
            switch scope {
            case .all: true
            case let .kind(kind): armed.fault.kind == kind
            case let .fault(id): armed.id == id
            case .powerLoss: false
            }
        }.map(\.id)
        inProcess.removeAll { cleared.contains($0.id) }
        return cleared
    }
}
