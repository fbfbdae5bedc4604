import CChaosVFS
import CSQLite
import Foundation
import Synchronization

/// Storage faults, carried out in the "chaos" SQLite VFS: disk full, I/O errors,
/// busy locks and slow I/O, for every connection of the process (GRDB's included).
///
/// ```swift
/// try StorageFaults.arm(StorageFaultRule(kind: .diskFull, on: .wal, directory: dataDir))
/// // ... the app's next commit fails with SQLITE_FULL; reads still work ...
/// StorageFaults.disarm(kind: .diskFull)
/// print(StorageFaults.firings())   // what fired, where, at which hit
/// ```
///
/// The VFS (C) asks one process-wide hook about every call; this type installs
/// that hook while at least one rule is armed and removes it when none is, so
/// an idle VFS costs one atomic load per call. All state is process-global and
/// thread-safe: SQLite calls the hook from whatever thread runs the statement.
/// Tests that arm rules must be serialized with each other and should give each
/// rule a ``StorageFaultRule/directory`` so that other databases of the process
/// are left alone.
///
/// Power loss (``PowerLoss``) is a separate mechanism of the same VFS and works
/// with or without rules armed.
///
/// Related SQLite documentation: <https://www.sqlite.org/vfs.html>
public enum StorageFaults {
    /// A rule that makes no sense (`io-error` without an operation, …).
    public struct RuleError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { "storage fault rule: \(message)" }
    }

    private static let policy = Mutex(StorageFaultPolicy())

    /// Arms `rule` next to those already armed (the first armed that fails a
    /// call decides its result). Registers the VFS as the default first, if needed.
    public static func arm(_ rule: StorageFaultRule) throws {
        if let problem = StorageFaultPolicy.problem(with: rule) { throw RuleError(message: problem) }
        try SQLiteFaultVFS.register()
        var rule = rule
        rule.directory = rule.directory.map { StoragePathPrefix.of(directory: $0) }
        policy.withLock { policy in
            policy.arm(rule)
            chaos_vfs_set_hook(storageFaultHook, nil)
        }
    }

    /// Disarms every rule of `kind`.
    public static func disarm(kind: StorageFaultRule.Kind) {
        policy.withLock { policy in
            policy.disarm(kind: kind)
            if policy.isEmpty { chaos_vfs_set_hook(nil, nil) }
        }
    }

    /// Disarms every rule.
    public static func disarmAll() {
        policy.withLock { policy in
            policy.disarmAll()
            chaos_vfs_set_hook(nil, nil)
        }
    }

    /// The rules armed now, in the order armed (directories resolved).
    public static func armedRules() -> [StorageFaultRule] {
        policy.withLock { $0.rules.map(\.rule) }
    }

    /// Every firing so far, oldest first; the first 10,000 are kept, later ones are not.
    public static func firings() -> [StorageFiring] {
        policy.withLock { $0.firings }
    }

    public static func resetFirings() {
        policy.withLock { $0.resetFirings() }
    }

    /// The hook's body: decide under the lock, sleep outside it.
    fileprivate static func decide(_ call: StorageFaultPolicy.Call) -> Int32 {
        let decision = policy.withLock { $0.decide(call) }
        if decision.delayNanoseconds > 0 { sleep(nanoseconds: decision.delayNanoseconds) }
        return decision.resultCode
    }

    private static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

/// The one C hook. It captures nothing: its state is the global policy.
private let storageFaultHook: chaos_vfs_hook = { _, op, kind, path, offset, amount in
    guard StorageFaultPolicy.isInteresting(op: op), kind != CHAOS_FILE_OTHER else { return 0 }
    return StorageFaults.decide(StorageFaultPolicy.Call(op: op, fileKind: kind, path: path, offset: offset, amount: amount))
}
