internal import CChaosVFS
import Foundation
import Synchronization

/// Simulated power loss: the process dies and every write that was not yet synced is
/// lost, kept, or torn, sector by sector. In one of two seams: the "chaos" SQLite VFS
/// (a target's SQLite files; the default), or the libc seam (any file under the data
/// folder, directory entries included: `Sources/CLibcSeam/chaos_libc_powerloss.c`).
///
/// ```swift
/// PowerLoss.enable(torn: true, under: dataDir)            // before opening the databases
/// PowerLoss.arm(atSync: 3, afterWrites: nil, mode: .torn, seed: 42)
/// // ... the app's 3rd fsync never happens: the process exits with PowerLoss.exitCode ...
/// ```
///
/// The model (chaos_powerloss.c explains it in full): writes go through; an undo
/// log per path keeps each write's pre-image until the file is synced; a crash
/// undoes what was not synced, per ``Mode``, fsyncs, deletes the -shm, and ends
/// the process with `_exit(86)`. Run it in a child process only: it never returns.
/// Only the main database, rollback journal and WAL are tracked.
///
/// Power loss works whether or not ``StorageHook`` rules are armed; a call a
/// rule fails never reaches the disk, so it never reaches the log either.
///
/// Related SQLite documentation: <https://www.sqlite.org/atomiccommit.html>
package enum PowerLoss {
    /// What a crash does with the writes that were not synced.
    package enum Mode: String, Codable, Sendable, CaseIterable {
        /// Lose them all: a clean power cut.
        case drop
        /// Keep them all: the OS had flushed everything in time.
        case keep
        /// Per sector, a seeded choice of kept, lost or garbage. Needs
        /// `enable(torn: true)`, so that SQLite knows sectors can tear.
        case torn

        var cValue: Int32 {
            switch self {
            case .drop: CHAOS_POWERLOSS_DROP
            case .keep: CHAOS_POWERLOSS_KEEP
            case .torn: CHAOS_POWERLOSS_TORN
            }
        }
    }

    /// The exit status of a simulated power loss (86): not 0, not a signal's 128+N.
    package static var exitCode: Int32 { CHAOS_POWER_LOSS_EXIT }

    private struct State {
        var enabled = false
        var torn = false
        var seam = StorageSeam.vfs
    }

    private static let state = Mutex(State())

    /// The libc seam is not loaded, so power cannot be cut at the file level here.
    package struct Unavailable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "power loss at the file level needs the libc seam: \(reason)" }
    }

    /// Starts undo logging of the files under `directory` (nil: every database of the
    /// process; the libc seam needs a folder) in `seam`, and registers the VFS as the
    /// default if it is not. Call it before opening the databases: with `torn`, SQLite
    /// must learn from the first open that sectors are `sectorSize` bytes and can tear.
    package static func enable(torn: Bool, sectorSize: Int = 512, under directory: String? = nil,
                               seam: StorageSeam) throws(Unavailable) {
        if seam == .libc {
            guard let directory, LibcSeam.isLoaded else {
                throw Unavailable(reason: LibcSeam.whyNotLoaded ?? "no data folder to watch")
            }
            LibcSeam.watch(directory)
            _ = LibcSeam.enablePowerLoss(true, torn: torn, sectorSize: sectorSize)
            state.withLock { $0 = State(enabled: true, torn: torn, seam: .libc) }
            return
        }
        enable(torn: torn, sectorSize: sectorSize, under: directory)
    }

    /// ``enable(torn:sectorSize:under:seam:)`` in the fault VFS, which is always there.
    package static func enable(torn: Bool, sectorSize: Int = 512, under directory: String? = nil) {
        do {
            try SQLiteFaultVFS.register()
        } catch {
            preconditionFailure("power loss needs the chaos VFS: \(error)")
        }
        state.withLock { state in
            chaos_vfs_powerloss_set_scope(directory.map { StoragePathPrefix.of(directory: $0) })
            chaos_vfs_powerloss_enable(1, Int32(clamping: sectorSize), torn ? 1 : 0)
            state = State(enabled: true, torn: torn)
        }
    }

    /// Stops undo logging, drops the logs and the armed triggers.
    package static func disable() {
        state.withLock { state in
            if state.seam == .libc {
                _ = LibcSeam.enablePowerLoss(false, torn: false, sectorSize: 0)
            } else {
                chaos_vfs_powerloss_enable(0, 0, 0)
                chaos_vfs_powerloss_set_scope(nil)
            }
            state = State()
        }
    }

    /// The seam power is cut in.
    package static var seam: StorageSeam { state.withLock { $0.seam } }

    /// Whether undo logging is on.
    package static var isEnabled: Bool { state.withLock { $0.enabled } }

    /// Arms a crash at the `atSync`-th sync of a tracked file (before it reaches
    /// the disk) or right after the `afterWrites`-th write, counted from now,
    /// whichever comes first; nil for neither. Enables logging (without
    /// tearing) if it is off. A `.torn` crash needs `enable(torn: true)` first.
    package static func arm(atSync: Int?, afterWrites: Int?, mode: Mode, seed: UInt64) {
        precondition(atSync.map { $0 > 0 } ?? true && afterWrites.map { $0 > 0 } ?? true, "crash counts are 1-based")
        if !isEnabled { enable(torn: false) }
        precondition(mode != .torn || state.withLock { $0.torn }, "a torn crash needs PowerLoss.enable(torn: true) before the databases open")
        if seam == .libc {
            LibcSeam.armPowerLoss(atSync: atSync ?? 0, afterWrites: afterWrites ?? 0, mode: mode.cValue, seed: seed)
        } else {
            chaos_vfs_powerloss_arm(Int32(clamping: atSync ?? 0), Int32(clamping: afterWrites ?? 0), mode.cValue, seed)
        }
    }

    /// Disarms the crash triggers; logging goes on.
    package static func disarm() {
        if seam == .libc {
            LibcSeam.armPowerLoss(atSync: 0, afterWrites: 0, mode: CHAOS_POWERLOSS_DROP, seed: 0)
        } else {
            chaos_vfs_powerloss_arm(0, 0, CHAOS_POWERLOSS_DROP, 0)
        }
    }

    /// Crashes now: undoes per `mode`, then `_exit(exitCode)`. Never returns.
    package static func crashNow(mode: Mode, seed: UInt64) -> Never {
        precondition(mode != .torn || state.withLock { $0.torn }, "a torn crash needs PowerLoss.enable(torn: true) before the databases open")
        if seam == .libc { LibcSeam.crash(mode: mode.cValue, seed: seed) }
        chaos_vfs_powerloss_crash(mode.cValue, seed)
    }

    /// Takes an image at a moment a cut could come (``PowerLossImage``): the data folder
    /// copied into `image.directory` and undone there as that cut would undo it in
    /// place; the app goes on. Only the fault VFS takes images (false in the libc seam,
    /// or with no data folder to copy). From then on the worker's events carry the
    /// writes and syncs counted when each was told (``WorkerEvent/io``).
    package static func image(_ image: PowerLossImage) -> Bool {
        guard seam == .vfs, isEnabled else { return false }
        if image.mode == .torn, !state.withLock({ $0.torn }) { return false }
        guard chaos_vfs_powerloss_image_at(Int32(clamping: image.atSync ?? 0), Int32(clamping: image.afterWrites ?? 0),
                                           image.mode.cValue, image.seed, image.directory) == 0 else { return false }
        stampsEvents.withLock { $0 = true }
        return true
    }

    /// Takes `images` (``image(_:)``) within a budget: a quarter of the room left where
    /// the first one goes, at most 1 GiB. An image past it is not taken (its trial runs
    /// whole): a sweep's images never fill the file system its trials' cases share.
    /// Returns how many will be taken.
    package static func take(_ images: [PowerLossImage]) -> Int {
        guard let first = images.first else { return 0 }
        var info = statvfs()
        let folder = (first.directory as NSString).deletingLastPathComponent
        let room = statvfs(folder, &info) == 0 ? Int64(info.f_bavail) * Int64(info.f_frsize) : 0
        chaos_vfs_powerloss_image_budget(min(room / 4, 1 << 30))
        return images.prefix { image($0) }.count
    }

    /// Whether the worker's events carry the counts they were told at: images are taken.
    package static let stampsEvents = Mutex(false)

    /// Since enabling: tracked writes and syncs, and undo entries pending now.
    package static func stats() -> (writes: Int, syncs: Int, pending: Int) {
        if seam == .libc { return LibcSeam.powerLossStats() }
        var writes: Int64 = 0, syncs: Int64 = 0, pending: Int64 = 0
        chaos_vfs_powerloss_stats(&writes, &syncs, &pending)
        return (Int(writes), Int(syncs), Int(pending))
    }
}
