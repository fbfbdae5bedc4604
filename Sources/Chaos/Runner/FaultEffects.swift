import ChaosTarget

/// What each armed fault did, in words, from what its seam counted: the effect every
/// injection records, measured rather than assumed. A fault that never fired, a point
/// never reached, a power cut whose moment never came had no effect; a case whose
/// faults did not all bite cannot pass (it is `inconclusive`).
enum FaultEffects {
    /// The effect of an in-process, network or power fault from its counts; file faults
    /// measure their own (``FileDamageEffect``).
    static func measure(_ activity: FaultActivity, step: FaultStep?, storage: StorageFacts = StorageFacts()) -> (hadEffect: Bool, summary: String) {
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
            if hits == 0, let step, let unreached = storage.whyUnreached(step) { return (false, "no effect: " + unreached) }
            if hits == 0 { return (false, "no effect: no operation it fails happened (\(activity.label))") }
            return (false, "no effect: \(hits) matching operation\(hits == 1 ? "" : "s"), its trigger (\(step?.trigger.label ?? "")) never fired")
        default:
            return (fired > 0, fired > 0 ? "applied" : "no effect: never applied")
        }
    }
}

/// What the workers of a case said about the seams that reach the target's files: how
/// many copies of SQLite it declares, whether the libc seam was loaded, and which seam
/// saw its files while storage faults were armed.
struct StorageFacts {
    var sqliteLibraries: Int?
    var libcSeamMissing: String?
    var reach: StorageReach?

    /// The seam a storage step goes through on this target.
    func seam(of step: FaultStep) -> StorageSeam {
        if (step.fault.base as? any StorageFault)?.seam == .tmpfs { return .tmpfs }
        return StorageSeam.resolved(step.trigger.seam, sqliteLibraries: sqliteLibraries ?? 1)
    }

    /// Why the fault can never fire in the seam that reaches this target: none of its
    /// operations is one the seam sees (the locks of `busy` in the libc seam).
    func missingOperations(_ fault: any StorageFault, step: FaultStep) -> String? {
        let seam = seam(of: step)
        guard seam != .tmpfs, fault.operations.isDisjoint(with: seam.operations) else { return nil }
        let operations = fault.operations.map(\.rawValue).sorted().joined(separator: ", ")
        return seam == .libc
            ? "the libc seam, which carries faults to a target without SQLite, sees no \(operations): those are SQLite's"
            : "the fault VFS sees no \(operations): SQLite never asks for that"
    }

    /// Why no call of the app reached the fault's seam, when that is why it had no
    /// effect: an operation the seam does not have, the libc seam missing, or an app
    /// whose files the fault VFS never saw.
    func whyUnreached(_ step: FaultStep) -> String? {
        if let fault = step.fault.base as? any StorageFault, let missing = missingOperations(fault, step: step) {
            return missing + (step.ifAbsent == .skip ? "" : " (add if-absent: skip to a case that may run on such a target)")
        }
        switch seam(of: step) {
        case .libc:
            if let libcSeamMissing { return "the libc seam is not in the app's process: \(libcSeamMissing)" }
            if let reach, reach.libcCalls == 0 {
                return "the app made no file call under its data folder through libc while it was armed "
                    + "(its files live elsewhere, or it writes them with raw syscalls)"
            }
            return nil
        case .vfs:
            guard let reach, reach.vfsOpens == 0 else { return nil }
            let seen = reach.libcOpens > 0
                ? "the app opened \(reach.libcOpens) file\(reach.libcOpens == 1 ? "" : "s") under its data folder, none through it"
                : "the app opened no database through it"
            let declared = sqliteLibraries ?? 1
            return "the fault VFS never saw the app's files: \(seen). "
                + (declared == 0 ? "The target declares no copy of SQLite (static let sqlite = []), so the VFS is in none: "
                    + "use seam: libc, or leave seam: out"
                    : "Its SQLite is not the copy the VFS is installed into (sqlite-nio and SQLCipher compile their own): "
                    + "name that copy in the target's static let sqlite, or use seam: libc")
        case .tmpfs:
            return nil
        }
    }
}
