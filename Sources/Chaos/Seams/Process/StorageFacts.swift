import ChaosTarget

/// What the workers of a case said about the seams that reach the target's files: how
/// many copies of SQLite it declares, whether the libc seam was loaded, and which seam
/// saw its files while storage faults were armed.
struct StorageFacts {
    var sqliteLibraries: Int
    var libcSeamMissing: String?
    var reach: StorageReach?

    /// The seam a storage step goes through on this target.
    func seam(of step: FaultStep) -> StorageSeam {
        if (step.fault.base as? any StorageFault)?.seam == .tmpfs { return .tmpfs }
        return StorageSeam.resolved(step.trigger.seam, sqliteLibraries: sqliteLibraries)
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
                if let elsewhere = FilesElsewhere.sentence(reach.outside ?? []) {
                    return "the app made no file call under its data folder while it was armed: \(elsewhere)"
                }
                return "the app made no file call under its data folder through libc while it was armed "
                    + "(its files live elsewhere, or it writes them with raw syscalls)"
            }
            return nil
        case .vfs:
            guard let reach, reach.vfsOpens == 0 else { return nil }
            let seen = reach.libcOpens > 0
                ? "the app opened \(reach.libcOpens) file\(reach.libcOpens == 1 ? "" : "s") under its data folder, none through it"
                : "the app opened no database through it"
            let declared = sqliteLibraries
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
