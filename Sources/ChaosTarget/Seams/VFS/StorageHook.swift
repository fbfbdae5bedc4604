internal import CChaosVFS
internal import CLibcSeamAPI
import Foundation
import Synchronization

/// Storage faults, carried out in the app's process by one of two seams: the "chaos"
/// SQLite VFS for every connection of each copy of SQLite the target declares (GRDB's
/// included), or the libc seam for any file (``LibcSeam``). The faults decide
/// (``StorageFault``); the seams only ask the armed ones about each call and carry
/// their answers out.
///
/// ```swift
/// try StorageHook.arm(ArmedFault(id: "full", fault: DiskFullFault(), trigger: Trigger(on: .wal), seed: 1),
///                       under: dataDir)
/// // ... the app's next commit fails with SQLITE_FULL; reads still work ...
/// StorageHook.disarm(id: "full")
/// print(StorageHook.firings())   // what fired, where, at which hit
/// ```
///
/// The VFS (C) asks one process-wide hook about every call; this type installs that
/// hook while at least one fault is armed and removes it when none is, so an idle VFS
/// costs one atomic load per call. All state is process-global and thread-safe:
/// SQLite calls the hook from whatever thread runs the statement. Tests that arm
/// faults must be serialized with each other and give each fault its own directory,
/// so that other databases of the process are left alone.
///
/// Power loss (``PowerLoss``) is a separate mechanism of the same VFS and works with or
/// without faults armed.
///
/// Related SQLite documentation: <https://www.sqlite.org/vfs.html>
package enum StorageHook {
    /// A fault that cannot be armed here: not a storage fault, or a memory that does not decode.
    package struct ArmError: Error, Equatable, CustomStringConvertible {
        package let message: String
        package var description: String { "storage fault: \(message)" }
    }

    private static let policy = Mutex(StorageFaultPolicy())
    /// The free space each armed `disk-full` with `reported-free` says the disk has, by id.
    private static let reportedFree = Mutex<[String: Int64]>([:])
    private static let observer = Mutex<(@Sendable (StorageFiring, Int) -> Void)?>(nil)

    /// Hears every firing as it happens, with its fault's count of firings so far,
    /// outside the policy's lock, on the thread of the call (the worker streams them).
    package static var onFiring: (@Sendable (StorageFiring, Int) -> Void)? {
        get { observer.withLock { $0 } }
        set { observer.withLock { $0 = newValue } }
    }

    /// Arms `armed` (a storage fault) in `seam` for the files under `directory`, next to
    /// those already armed; arming an id again replaces it. Registers the VFS as the
    /// default first, if needed. A libc fault in a process without the libc seam is
    /// armed all the same: it never fires, and the worker's ready line says why.
    /// `unprotected`: the declared files a locked device still serves.
    package static func arm(_ armed: ArmedFault, under directory: String, seam: StorageSeam = .vfs, files: [String: String] = [:],
                            unprotected: [String] = []) throws {
        guard let fault = armed.fault.base as? any StorageFault else {
            throw ArmError(message: "'\(armed.fault.kind)' is not a storage fault")
        }
        let seamed = try make(armed, fault, directory: StoragePathPrefix.of(directory: directory), seam: seam, files: files,
                              unprotected: unprotected)
        if seam == .vfs { try SQLiteFaultVFS.register() }
        LibcSeam.watch(directory)
        policy.withLock { policy in
            policy.arm(seamed)
            installHooks(policy)
        }
        report(free: (fault as? DiskFullFault)?.reportedFree, for: armed.id)
    }

    /// A full disk the VFS played: statfs reports no room from now on, as the libc seam's
    /// own does once it refused a write (unless the fault says what it reports).
    private static func readsFull(_ id: String) {
        reportedFree.withLock { figures in
            guard figures[id] == nil else { return }
            figures[id] = 0
            LibcSeam.setReportedFree(figures.values.min())
        }
    }

    /// What statfs reports free while `id` stands (nil: it says nothing); the least of
    /// what the armed faults say is what the seam reports.
    private static func report(free bytes: Int64?, for id: String?) {
        reportedFree.withLock { figures in
            if let id { figures[id] = bytes } else { figures.removeAll() }
            LibcSeam.setReportedFree(figures.values.min())
        }
    }

    private static func make<F: StorageFault>(_ armed: ArmedFault, _ fault: F, directory: String, seam: StorageSeam,
                                              files: [String: String], unprotected: [String]) throws -> any StorageArming {
        do {
            return try StorageArmingOf(armed, fault: fault, directory: directory, seam: seam, files: files, unprotected: unprotected)
        } catch {
            throw ArmError(message: "the saved state of '\(armed.id)' does not decode: \(error)")
        }
    }

    /// Each seam's hook is set while a fault of that seam is armed, so an idle seam
    /// costs one atomic load per call.
    private static func installHooks(_ policy: StorageFaultPolicy) {
        let seams = Set(policy.armed.flatMap(\.seams))
        chaos_vfs_set_hook(seams.contains(.vfs) || SuspensionMoment.isActive ? storageFaultHook : nil, nil)
        LibcSeam.setHook(seams.contains(.libc) || !ReadOnlyPaths.isEmpty ? libcFaultHook : nil)
    }

    /// Installs the VFS's hook for a suspension's moment (``SuspensionMoment``), or
    /// removes it once no fault needs it either.
    package static func watchForSuspension() {
        policy.withLock { installHooks($0) }
    }

    /// The read-only paths the controller listed (``ReadOnlyPaths``) refused from now on.
    package static func refuseReadOnlyPaths() {
        policy.withLock { installHooks($0) }
    }

    /// Disarms the fault armed under `id`.
    package static func disarm(id: String) {
        policy.withLock { policy in
            policy.disarm(id: id)
            installHooks(policy)
        }
        report(free: nil, for: id)
    }

    /// Disarms every fault.
    package static func disarmAll() {
        policy.withLock { policy in
            policy.disarmAll()
            installHooks(policy)
        }
        report(free: nil, for: nil)
    }

    /// The ids armed now, in the order armed.
    package static var armedIDs: [String] {
        policy.withLock { $0.armed.map(\.id) }
    }

    /// Where every armed fault stands (its counter and memory).
    package static func progress() -> [FaultStanding] {
        policy.withLock { $0.progress }
    }

    /// Every firing so far, oldest first; the first 10,000 are kept, later ones are not.
    package static func firings() -> [StorageFiring] {
        policy.withLock { $0.firings }
    }

    package static func resetFirings() {
        policy.withLock { $0.resetFirings() }
    }

    /// The hooks' body: decide under the lock, sleep outside it.
    fileprivate static func decide(_ call: StorageFaultPolicy.Call) -> StorageEffect {
        let outcome = policy.withLock { $0.decide(call) }
        for (firing, _) in outcome.firings where firing.kind == DiskFullFault.kind && firing.seam != .libc {
            readsFull(firing.id)
        }
        if !outcome.firings.isEmpty, let observer = onFiring {
            for (firing, fired) in outcome.firings { observer(firing, fired) }
        }
        if outcome.effect.delay > .zero { outcome.effect.delay.sleepThread() }
        return outcome.effect
    }
}

/// The VFS's C hook. It captures nothing: its state is the global policy.
private let storageFaultHook: chaos_vfs_hook = { _, op, kind, path, offset, amount in
    if SuspensionMoment.isActive, let path { SuspensionMoment.see(op: op, path: String(cString: path), offset: offset, amount: amount) }
    guard StorageFaultPolicy.isInteresting(op: op), kind != CHAOS_FILE_OTHER else { return 0 }
    return StorageHook.decide(StorageFaultPolicy.Call(op: op, fileKind: kind, path: path, offset: offset, amount: amount)).resultCode
}

/// The libc seam's C hook: an errno, `CHAOS_LIBC_SHORT`, or 0.
private let libcFaultHook: chaos_libc_hook = { op, path, offset, amount in
    guard let path, let operation = LibcSeam.operation(of: op) else { return 0 }
    if !ReadOnlyPaths.isEmpty {
        let refused = ReadOnlyPaths.answer(operation, path: String(cString: path), amount: amount)
        if refused != 0 { return refused }
    }
    return StorageHook.decide(StorageFaultPolicy.Call(libc: operation, path: path, offset: offset, amount: amount)).libcAnswer
}
