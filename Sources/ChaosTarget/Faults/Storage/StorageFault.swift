/// A fault carried out inside the app's own process, on the calls its storage makes on
/// its files: SQLite's calls through the fault VFS, or libc's calls (open, write, fsync,
/// rename...) through the libc seam. For every call the fault says whether it is one of
/// its operations (a *hit*, counted by the step's ``Trigger``) and, when the trigger
/// fires on a hit, what the call does instead (``StorageEffect``). The seams only carry
/// that out; `Seams/VFS/StorageFaultPolicy` asks the armed faults in order.
///
/// Adding a storage fault kind is one file: a struct conforming to this protocol, and
/// its line in ``FaultCatalog/all``.
package protocol StorageFault: InProcessFault {
    /// What the fault remembers between calls, beyond its trigger's counts (disk-full:
    /// the bytes written so far). It survives relaunches of the app, with the counts.
    associatedtype Memory: Sendable, Codable, Equatable = NoMemory
    /// A fresh memory, when the fault is armed.
    var initialMemory: Memory { get }

    /// The seam that carries the fault out: in the app's process (``StorageSeam/inProcess``:
    /// the VFS or the libc seam, per the step's `seam:` and the target), or a real device.
    var seam: StorageSeam { get }

    /// It spares the files the target declares unprotected (``ChaosTarget/unprotectedFiles``):
    /// a locked device's. Default: false.
    static var honoursDataProtection: Bool { get }

    /// The operations it can hit: what a seam must carry for the fault to ever fire.
    var operations: Set<StorageCall.Operation> { get }

    /// Whether `call` is one of the fault's operations: a hit. `on` is the step's
    /// `on:` (default `any`); ``StorageCall/isOn(_:)`` is the usual reading of it.
    func isHit(_ call: StorageCall, on: StorageFile, memory: inout Memory) -> Bool

    /// What a hit the trigger fired on does instead. `rng` is the fault's own seeded
    /// stream (slow-io's jitter).
    func effect(of call: StorageCall, memory: inout Memory, rng: inout SplitMix64) -> StorageEffect

    /// What a hit the trigger did not fire on leaves in the memory. Default: nothing.
    func passed(_ call: StorageCall, memory: inout Memory)
}

extension StorageFault {
    package static var family: FaultFamily { .storage }
    package static var acceptsTrigger: Bool { true }
    package static var acceptsStorageFile: Bool { true }
    package var seam: StorageSeam { .inProcess }
    package static var honoursDataProtection: Bool { false }
    package func passed(_ call: StorageCall, memory: inout Memory) {}
}

extension StorageFault where Memory == NoMemory {
    package var initialMemory: NoMemory { NoMemory() }
}

/// The memory of a fault that needs none.
package struct NoMemory: Sendable, Codable, Equatable {
    package init() {}
}

/// Which seam carries a storage fault out.
package enum StorageSeam: String, Sendable, Codable, CaseIterable {
    /// The fault VFS, in the app's process, installed into each copy of SQLite the
    /// target declares: SQLite's own calls, with SQLite's result codes.
    case vfs
    /// The libc seam, preloaded into the app's process: any file, with errnos.
    case libc
    /// A real small tmpfs under the app's data folder, filled by the controller.
    case tmpfs

    /// The operations the seam sees: SQLite's calls through the VFS (its locks, no
    /// renames), libc's calls (renames, no locks); none for a tmpfs, filled from outside.
    package var operations: Set<StorageCall.Operation> {
        switch self {
        case .vfs: [.open, .read, .write, .sync, .truncate, .lock, .shmLock, .delete]
        case .libc: [.open, .read, .write, .sync, .truncate, .rename, .delete]
        case .tmpfs: []
        }
    }

    /// In the app's process, on whichever of ``vfs`` and ``libc`` reaches the target
    /// (``resolved(_:sqliteLibraries:)``).
    package static let inProcess = StorageSeam.vfs

    /// The values `seam:` takes in a scenario.
    package static let choices = ["vfs", "libc"]

    /// The in-process seam a fault goes through: the one a step names, else the VFS when
    /// the target's storage runs on a copy of SQLite it declares, else libc.
    package static func resolved(_ choice: StorageSeam?, sqliteLibraries: Int) -> StorageSeam {
        choice ?? (sqliteLibraries > 0 ? .vfs : .libc)
    }
}

/// One call SQLite made on one of the app's files, as the fault VFS reports it.
package struct StorageCall: Sendable, Equatable {
    package enum Operation: String, Sendable, Codable, CaseIterable {
        case open, read, write, sync, truncate, lock, delete
        /// A lock on the WAL index (`-shm`); ``StorageCall/slot`` says which.
        case shmLock = "shm-lock"
        /// A file renamed (the libc seam only: SQLite renames nothing).
        case rename
    }

    package var operation: Operation
    /// The file the call is about (for a `-shm` lock, the database whose WAL it guards).
    package var file: StorageFile
    /// The file's full path.
    package var path: String
    /// read/write: the byte offset; truncate: the new size; shm-lock: the first slot.
    package var offset: Int64
    /// read/write: the byte count; lock: the lock level; truncate: 1 when the file
    /// grows; shm-lock: the slot count; open: the open flags; sync: the sync flags.
    package var amount: Int32

    package init(operation: Operation, file: StorageFile, path: String, offset: Int64 = 0, amount: Int32 = 0) {
        self.operation = operation
        self.file = file
        self.path = path
        self.offset = offset
        self.amount = amount
    }

    /// Whether the call is on a file `on:` names: `store`, `journal`, `wal`, or any of them.
    package func isOn(_ on: StorageFile) -> Bool {
        on == .any || file == on
    }

    /// A read, write, sync or truncate: "an I/O operation" of the io sweep.
    package var isIO: Bool { [.read, .write, .sync, .truncate].contains(operation) }

    /// A truncate that makes the file larger (a full disk fails only those).
    package var grows: Bool { operation == .truncate && amount != 0 }

    /// SQLite's `SQLITE_LOCK_RESERVED`: a lock request at this level or above is the
    /// write lock of a rollback-journal database.
    package static let reservedLockLevel: Int32 = 2
}

/// What a storage fault does to the call it fired on.
package struct StorageEffect: Sendable, Equatable {
    /// The SQLite result code returned instead of the call (the VFS); 0 lets the call through.
    package var resultCode: Int32
    /// The errno the call fails with in the libc seam; nil: the one `resultCode` stands for.
    package var errno: StorageErrno?
    /// How long the call waits first.
    package var delay: Duration

    package init(resultCode: Int32 = 0, errno: StorageErrno? = nil, delay: Duration = .zero) {
        self.resultCode = resultCode
        self.errno = errno
        self.delay = delay
    }

    /// The call fails with `code` (the VFS), or `errno` (libc; default: the code's own).
    package static func fail(_ code: Int32, errno: StorageErrno? = nil) -> StorageEffect {
        StorageEffect(resultCode: code, errno: errno)
    }

    /// What the libc seam does instead of the call: 0 (through), a positive errno, or
    /// `CHAOS_LIBC_SHORT` (-1) for a short read.
    package var libcAnswer: Int32 {
        switch resultCode {
        case 0: 0
        case Code.ioErrorShortRead: -1
        case Code.full: (errno ?? .enospc).value
        default: (errno ?? .eio).value
        }
    }

    /// The call waits, then goes through.
    package static func wait(_ delay: Duration) -> StorageEffect { StorageEffect(delay: delay) }

    /// SQLite's result codes a storage fault returns. Swift does not import SQLite's
    /// composite `SQLITE_IOERR_*` macros: they are `SQLITE_IOERR | (n << 8)`.
    package enum Code {
        package static let busy: Int32 = 5
        package static let full: Int32 = 13
        package static let cantOpen: Int32 = 14
        package static let ioErrorRead: Int32 = 10 | (1 << 8)  // 266
        /// The VFS zero-fills the buffer, as SQLite requires of a short read.
        package static let ioErrorShortRead: Int32 = 10 | (2 << 8)  // 522
        package static let ioErrorWrite: Int32 = 10 | (3 << 8)  // 778
        package static let ioErrorFsync: Int32 = 10 | (4 << 8)  // 1034
        package static let ioErrorTruncate: Int32 = 10 | (6 << 8)  // 1546
        package static let ioErrorDelete: Int32 = 10 | (10 << 8)  // 2570
        package static let ioErrorLock: Int32 = 10 | (15 << 8)  // 3850
        package static let ioErrorShmLock: Int32 = 10 | (20 << 8)  // 5130
    }
}
