/// One storage fault armed in the VFS: what fails (or slows down), on which
/// file, and when. Codable because a controller sends it to a worker process as JSON.
///
/// ```swift
/// // The WAL's writes fail with SQLITE_FULL once 64 KiB have been written to it.
/// try StorageFaults.arm(StorageFaultRule(kind: .diskFull, on: .wal, directory: dataDir, afterBytes: 65_536))
/// // Every 3rd read of the store, from the 10th on, fails with SQLITE_IOERR_READ.
/// try StorageFaults.arm(StorageFaultRule(kind: .ioError, operation: .read, on: .store,
///                                        trigger: Trigger(after: 9, probability: 0.33), seed: 7))
/// ```
///
/// What each kind does, and which operations count as its "hits" (the
/// ``trigger`` counts them, 1-based, per rule):
///
/// - `disk-full`: `SQLITE_FULL` (13) on writes and on truncates that grow a file
///   (`operation` nil), or only on `write` / `truncate`. With ``afterBytes`` the
///   first that many bytes written to matching files go through; once a write
///   does not fit, that write and every later one count as hits. Once fired it
///   stays full (sticky) until disarmed, unless the trigger's `times` runs out.
/// - `io-error`: the extended code of ``operation`` (nil: any read, write, sync or
///   truncate, each with its own code — the io sweep's "Nth I/O operation"): read 266
///   (`SQLITE_IOERR_READ`), write 778, sync 1034 (`IOERR_FSYNC`), truncate 1546,
///   open 14 (`SQLITE_CANTOPEN`), lock 3850 (`IOERR_LOCK`, any lock level), delete 2570.
/// - `busy`: `SQLITE_BUSY` (5) when a connection asks for the write lock:
///   `xLock` to RESERVED or higher (rollback-journal modes; GRDB's
///   DatabaseQueue) and, in WAL mode, `xShmLock` of slot 0, the WAL write lock
///   (GRDB's DatabasePool writer). Readers never take either, so reads go on
///   working. `on`: `store` or `any` = both, `wal` = only the WAL write lock.
///   SQLite's busy handler (GRDB's `busyMode`) retries as it would for a real
///   competing writer.
/// - `slow-io`: sleeps ``latencyMs`` plus a seeded `0...jitterMs` in every
///   matching read, write and sync (`operation` nil) or only in `operation`,
///   then lets it through.
///
/// Only the main database (`store`), the rollback journal (`journal`) and the
/// WAL (`wal`) ever count; temp files, sub-journals and the -shm never do.
public struct StorageFaultRule: Codable, Sendable, Equatable {
    /// The fault kinds of the VFS; the raw values are the wire names.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case diskFull = "disk-full"
        case ioError = "io-error"
        case slowIO = "slow-io"
        case busy
    }

    /// The VFS operations a rule can name.
    public enum Operation: String, Codable, Sendable, CaseIterable {
        case read, write, sync, truncate, open, lock, delete
    }

    public var kind: Kind
    /// io-error: which operation (required); disk-full: `write` and/or growing
    /// `truncate` (nil = both); busy: `lock` or nil; slow-io: nil = every read, write and sync.
    public var operation: Operation?
    /// Which files count: `store` = the main database, `journal` = its rollback
    /// journal, `wal` = its WAL, `any` = all three. The trigger's own `on` is ignored.
    public var on: StorageFile
    /// Only files under this directory count; nil = every database of the
    /// process. A worker passes its data directory; tests pass their temp directory.
    public var directory: String?
    /// disk-full only: bytes let through to matching files before the disk is full.
    public var afterBytes: Int?
    /// slow-io only: base latency of each matching operation, in milliseconds.
    public var latencyMs: Int?
    /// slow-io only: plus a seeded `0...jitterMs` milliseconds.
    public var jitterMs: Int?
    /// When it fires: hits are matching operations, 1-based.
    public var trigger: Trigger
    /// Seeds the trigger's probability draws and the slow-io jitter.
    public var seed: UInt64

    public init(
        kind: Kind, operation: Operation? = nil, on: StorageFile = .any, directory: String? = nil,
        afterBytes: Int? = nil, latencyMs: Int? = nil, jitterMs: Int? = nil,
        trigger: Trigger = Trigger(), seed: UInt64 = 0
    ) {
        self.kind = kind
        self.operation = operation
        self.on = on
        self.directory = directory
        self.afterBytes = afterBytes
        self.latencyMs = latencyMs
        self.jitterMs = jitterMs
        self.trigger = trigger
        self.seed = seed
    }

    /// The longest slow-io latency or jitter accepted: a bound, not a real need.
    public static let maxLatencyMs = 60_000
}

/// A storage fault that fired: what, where, at which hit, with which result.
/// The record that tells an injected failure from an organic one in a report.
public struct StorageFiring: Codable, Sendable, Equatable {
    /// The rule's kind, as its wire name (`disk-full`).
    public var kind: String
    /// The operation that matched (`write`).
    public var operation: String
    /// `store`, `journal`, `wal` or `other`.
    public var file: String
    /// The file's full path.
    public var path: String
    /// The matching-operation count (the rule's hit) at which it fired, 1-based.
    public var count: Int
    /// The SQLite result code returned instead of the call (0 for slow-io).
    public var resultCode: Int32

    public init(kind: String, operation: String, file: String, path: String, count: Int, resultCode: Int32) {
        self.kind = kind
        self.operation = operation
        self.file = file
        self.path = path
        self.count = count
        self.resultCode = resultCode
    }
}
