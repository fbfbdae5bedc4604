import ChaosTarget

/// What each armed fault did, in words, from what its seam counted: the effect every
/// injection records, measured rather than assumed. A fault that never fired, a point
/// never reached, a power cut whose moment never came had no effect; a case whose
/// faults did not all bite cannot pass (it is `inconclusive`).
enum FaultEffects {
    /// The effect of an in-process, network or power fault from its counts; file faults
    /// measure their own (``FileDamageEffect``).
    static func measure(_ activity: FaultActivity, step: FaultStep?) -> (hadEffect: Bool, summary: String) {
        let fired = activity.fired
        let hits = activity.hits ?? 0
        let family = step?.fault.family
        if activity.kind == StepKeyword.powerLoss.rawValue {
            let io = activity.writes.map { " (\($0) writes, \(activity.syncs ?? 0) syncs while it waited)" } ?? ""
            return fired > 0 ? (true, "the power went out") : (false, "no effect: its moment never came\(io)")
        }
        switch family {
        case .network?:
            return fired > 0 ? (true, "acted on \(fired) connection\(fired == 1 ? "" : "s")")
                : (false, "no effect: no connection reached the remote while it was armed")
        case .point?:
            let point = (step?.fault.base as? any PointFault)?.point ?? activity.label
            if fired > 0 { return (true, "fired \(fired) time\(fired == 1 ? "" : "s") in \(hits) hit\(hits == 1 ? "" : "s") of \(point)") }
            if hits == 0 { return (false, "no effect: the point \(point) was never reached") }
            return (false, "no effect: \(point) was hit \(hits) time\(hits == 1 ? "" : "s"), its trigger (\(step?.trigger.label ?? "")) never fired")
        case .storage?:
            if fired > 0 { return (true, "fired on \(fired) of \(max(hits, fired)) matching operation\(hits == 1 ? "" : "s")") }
            if hits == 0 { return (false, "no effect: no operation it fails happened (\(activity.label))") }
            return (false, "no effect: \(hits) matching operation\(hits == 1 ? "" : "s"), its trigger (\(step?.trigger.label ?? "")) never fired")
        default:
            return (fired > 0, fired > 0 ? "applied" : "no effect: never applied")
        }
    }
}
