package import CLibcSeamAPI
import Foundation
import Synchronization

/// The libc seam, as the worker drives it: the library `libChaosLibcSeam.so` that the
/// controller preloads into every worker (`LD_PRELOAD`, as the clock seam preloads
/// libfaketime) stands in front of libc's open, read, write, fsync, rename, ftruncate
/// and unlink. The worker never links it; it finds it here, at run time, and gives it
/// a scope (the app's data folder), the storage faults' hook, and the power cut.
///
/// What reaches it: every call the app makes through the dynamic libc — Foundation,
/// a JSON encoder, a copy of SQLite compiled into the app (sqlite-nio's, SQLCipher's).
/// Calls glibc makes to itself are wrapped at their entry points: `remove(3)` (which
/// unlinks inside libc) and stdio (`fopen` of a file in scope opens through the seam and
/// writes through it at each flush). What does not reach it: a statically linked
/// executable, a wrapper that clears `LD_PRELOAD`, raw syscalls, a `freopen`'d stream's
/// writes. When the seam is not loaded, ``isLoaded`` is false and the worker says so in
/// its ready line.
///
/// Related: `Sources/CLibcSeam/chaos_libc.c` (the interposers and their "Method:"),
/// `chaos_libc_calls.c` (vectored writes, fallocate, copies, range syncs, statfs),
/// `chaos_libc_stdio.c` (streams), `chaos_libc_powerloss.c` (the power cut at the file
/// level: unnamed files linked in, replaced names).
package enum LibcSeam {
    /// The seam's table, or nil when this process has none loaded.
    nonisolated(unsafe) private static let table: UnsafePointer<chaos_libc_seam>? = chaos_libc_seam_find()

    /// Whether the seam is loaded in this process.
    package static var isLoaded: Bool { table != nil }

    /// The environment variable the controller sets to say where it looked, so a worker
    /// without the seam can tell why (see ``whyNotLoaded``).
    package static let expectedVariable = "CHAOS_LIBC_SEAM_EXPECTED"
    /// Set instead when the controller had no library to preload: why.
    package static let unavailableVariable = "CHAOS_LIBC_SEAM_UNAVAILABLE"

    /// Why the seam is not loaded here, in words; nil when it is.
    package static var whyNotLoaded: String? {
        guard !isLoaded else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let preload = environment["LD_PRELOAD"] ?? ""
        if let chosen = environment["CHAOS_LIBC_SEAM"], !chosen.isEmpty {
            return chosen == "off" ? "CHAOS_LIBC_SEAM=off turned it off"
                : "CHAOS_LIBC_SEAM names \(chosen), which does not exist"
        }
        if let expected = environment[expectedVariable], !expected.isEmpty {
            return preload.contains(expected)
                ? "the target's process did not load \(expected) though LD_PRELOAD named it (a statically linked executable?)"
                : "LD_PRELOAD did not reach the target's process (a wrapper that clears it?); it should name \(expected)"
        }
        if let why = environment[unavailableVariable], !why.isEmpty { return why }
        return "the controller preloaded no libChaosLibcSeam.so (a controller older than this target?)"
    }

    /// Set to `1` in a worker's environment: the seam watches its data folder from the
    /// first launch (a case whose fault is measured by what the app attempts: read-only).
    package static let watchVariable = "CHAOS_WATCH_DATA"

    private static let scope = Mutex<String?>(nil)

    /// Looks at calls on files under `directory` from now on (the worker's data folder).
    /// Setting the same folder again keeps the counts.
    package static func watch(_ directory: String) {
        guard let table else { return }
        let prefix = StoragePathPrefix.of(directory: directory)
        scope.withLock { current in
            guard current != prefix else { return }
            current = prefix
            table.pointee.set_scope(prefix)
        }
    }

    /// Sets (nil: clears) the hook storage faults decide through.
    package static func setHook(_ hook: chaos_libc_hook?) {
        table?.pointee.set_hook(hook)
    }

    /// Sets the bytes statfs and statvfs report free for the files under the scope, a
    /// disk that says it has room (nil: the real figures).
    package static func setReportedFree(_ bytes: Int64?) {
        table?.pointee.set_reported_free(bytes ?? -1)
    }

    /// Calls on files under the scope so far, by operation.
    package static func calls() -> [StorageCall.Operation: Int] {
        byOperation { table, out in table.pointee.counters(out) }
    }

    /// Calls under the scope the kernel refused (EACCES, EPERM, EROFS), by operation:
    /// what a read-only file or folder did to the app, as the app met it.
    package static func refused() -> [StorageCall.Operation: Int] {
        byOperation { table, out in table.pointee.refused(out) }
    }

    /// One of the seam's tables of counts by `CHAOS_LIBC_OP_*`, by operation.
    private static func byOperation(_ read: (UnsafePointer<chaos_libc_seam>, UnsafeMutablePointer<CLongLong>) -> Void)
        -> [StorageCall.Operation: Int] {
        guard let table else { return [:] }
        var counts = [Int64](repeating: 0, count: Int(CHAOS_LIBC_OP_COUNT))
        counts.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CLongLong.self, capacity: buffer.count) { read(table, $0) }
        }
        var result: [StorageCall.Operation: Int] = [:]
        for (index, count) in counts.enumerated() where count > 0 {
            if let operation = operation(of: Int32(index)) { result[operation] = Int(count) }
        }
        return result
    }

    /// The folders outside the scope where the app made or wrote files, the first few.
    package static func outsideFolders() -> [String] {
        guard let table else { return [] }
        var buffer = [CChar](repeating: 0, count: Int(CHAOS_LIBC_OUTSIDE_MAX) * Int(PATH_MAX) + 1)
        _ = buffer.withUnsafeMutableBufferPointer { table.pointee.outside($0.baseAddress, Int32($0.count)) }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.split(separator: "\n").map(String.init)
    }

    /// The lines of the seam's calls since the last take (``SeamCall``); none without it.
    static func takeCalls() -> [Substring] {
        guard let table else { return [] }
        return SeamCall.lines(capacity: 1 << 16) { table.pointee.calls($0, $1) }
    }

    /// The operation of a `CHAOS_LIBC_OP_*` code.
    static func operation(of op: Int32) -> StorageCall.Operation? {
        switch op {
        case CHAOS_LIBC_OP_OPEN: .open
        case CHAOS_LIBC_OP_READ: .read
        case CHAOS_LIBC_OP_WRITE: .write
        case CHAOS_LIBC_OP_SYNC: .sync
        case CHAOS_LIBC_OP_TRUNCATE: .truncate
        case CHAOS_LIBC_OP_RENAME: .rename
        case CHAOS_LIBC_OP_DELETE: .delete
        default: nil
        }
    }

    // MARK: - Power loss at the file level

    /// Starts (or stops) keeping what a power cut would lose under the scope.
    static func enablePowerLoss(_ enabled: Bool, torn: Bool, sectorSize: Int) -> Bool {
        guard let table else { return false }
        table.pointee.powerloss_enable(enabled ? 1 : 0, Int32(clamping: sectorSize), torn ? 1 : 0)
        return true
    }

    static func armPowerLoss(atSync: Int, afterWrites: Int, mode: Int32, seed: UInt64) {
        table?.pointee.powerloss_arm(Int32(clamping: atSync), Int32(clamping: afterWrites), mode, seed)
    }

    static func crash(mode: Int32, seed: UInt64) {
        table?.pointee.powerloss_crash(mode, seed)
    }

    static func powerLossStats() -> (writes: Int, syncs: Int, pending: Int) {
        var writes: CLongLong = 0, syncs: CLongLong = 0, pending: CLongLong = 0
        table?.pointee.powerloss_stats(&writes, &syncs, &pending)
        return (Int(writes), Int(syncs), Int(pending))
    }
}
