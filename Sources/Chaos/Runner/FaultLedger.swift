import ChaosTarget

/// Every fault a case armed, by id, and what each did (``FaultActivity``): one entry
/// per fault step, in arming order. The seams write into it as
/// they carry their faults out; the report reads it at the end.
final class FaultLedger {
    private(set) var activities: [FaultActivity] = []
    /// The step of every id armed: its kind (for `clear: KIND`) and its fault.
    private var steps: [String: FaultStep] = [:]

    /// Notes a fault step as armed under `id`, by the scenario's step `number` (nil: a
    /// sweep's own fault).
    func note(_ step: FaultStep, id: String, step number: Int?) {
        precondition(steps[id] == nil, "a fault id is armed once in a case: \(id)")
        steps[id] = step
        activities.append(FaultActivity(id: id, step: number, kind: step.fault.kind, label: step.fault.label))
    }

    /// Changes the activity of `id`.
    func update(_ id: String, _ change: (inout FaultActivity) -> Void) {
        guard let index = activities.lastIndex(where: { $0.id == id }) else { return }
        change(&activities[index])
    }

    /// The step armed under `id`.
    func step(of id: String) -> FaultStep? { steps[id] }

    /// Whether `scope` names the fault armed under `id`.
    func scope(_ scope: ClearScope, covers id: String) -> Bool {
        switch scope {
        case .all: true
        case let .kind(kind): steps[id]?.fault.kind == kind
        case let .fault(faultID): faultID == id
        }
    }
}
