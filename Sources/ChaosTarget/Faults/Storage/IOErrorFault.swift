/// An I/O operation fails: with SQLite's extended I/O error code for it (the fault VFS),
/// or with an errno (the libc seam: EIO unless `errno:` says otherwise).
///
/// ```yaml
/// - fault: io-error
///   op: sync               # read | write | sync | truncate | open | lock | delete | rename | any
///   on: store              # store | journal | wal | any (default any)
///   errno: EIO             # EIO (default) | ENOSPC | EROFS | EDQUOT | EDEADLK
///   times: 1
/// ```
///
/// `errno: EDEADLK` is a file that cannot be opened right now ("Resource deadlock
/// avoided": still downloading from the cloud, cryptomator/cryptomator#1309), told apart
/// from a file that is not there (`file-unavailable`).
///
/// `op: rename` is a libc operation (SQLite renames nothing); `op: lock` a SQLite one
/// (the libc seam sees no locks). In the VFS an `errno:` of ENOSPC or EDQUOT on a write
/// is `SQLITE_FULL`, as SQLite's unix VFS reads it.
///
/// `op: any` counts every read, write, sync and truncate, each failing with its own
/// code: "the Nth I/O operation" of `chaos explore --sweep io`. `op: lock` counts every
/// lock request: the database's (`xLock`) and, in WAL mode, the WAL index's (`-shm`),
/// which is how a WAL database locks for a write.
package struct IOErrorFault: StorageFault {
    package static let kind = "io-error"
    package static let summary = "Fail one kind of file operation with SQLite's I/O error code (IOERR_READ, IOERR_FSYNC...)."
    package static let example = """
        - fault: io-error
          op: read
          on: store
        """
    package static let parameterKeys = ["op", "errno"]

    package static let anyOperation = "any"
    package static let operations = ["read", "write", "sync", "truncate", "open", "lock", "delete", "rename", anyOperation]

    /// One of ``operations``.
    package var operation: String
    /// The errno of a failed libc call (nil: EIO).
    package var errno: StorageErrno?

    package init(operation: String, errno: StorageErrno? = nil) {
        self.operation = operation
        self.errno = errno
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        operation = try parameters.requiredOneOf("op", Self.operations)
        errno = try StorageErrno.parse(parameters, allowed: [.eio, .enospc, .erofs, .edquot, .edeadlk])
    }

    package var label: String { "\(Self.kind) \(operation)" + (errno.map { " (\($0.rawValue))" } ?? "") }

    package var operations: Set<StorageCall.Operation> {
        if operation == Self.anyOperation { return [.read, .write, .sync, .truncate] }
        if operation == StorageCall.Operation.lock.rawValue { return [.lock, .shmLock] }
        return StorageCall.Operation(rawValue: operation).map { [$0] } ?? []
    }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        guard call.isOn(on) else { return false }
        if call.operation == .shmLock { return operation == StorageCall.Operation.lock.rawValue }
        return operation == Self.anyOperation ? call.isIO : call.operation.rawValue == operation
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        if let errno, errno.meansFull, call.operation == .write || call.grows { return .fail(StorageEffect.Code.full, errno: errno) }
        return .fail(Self.code(for: call.operation), errno: errno)
    }

    /// The extended result code of a failed `operation`.
    package static func code(for operation: StorageCall.Operation) -> Int32 {
        typealias Code = StorageEffect.Code
        switch operation {
        case .read: return Code.ioErrorRead
        case .write: return Code.ioErrorWrite
        case .sync: return Code.ioErrorFsync
        case .truncate: return Code.ioErrorTruncate
        case .delete: return Code.ioErrorDelete
        case .lock: return Code.ioErrorLock
        case .shmLock: return Code.ioErrorShmLock
        case .open: return Code.cantOpen
        case .rename: return Code.ioErrorWrite
        }
    }
}

extension IOErrorFault: HuntedFault {
    package static let huntGroup = HuntGroup.storage
    package static let huntWeight = 1

    /// One of the operations the target's seam sees, and a trigger.
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("op", .string(draws.pick(situation.storageOperations)))] + draws.trigger()
    }
}
