/// An I/O operation fails with SQLite's extended I/O error code for it.
///
/// ```yaml
/// - fault: io-error
///   op: sync               # read | write | sync | truncate | open | lock | delete | any
///   on: store              # store | journal | wal | any (default any)
///   times: 1
/// ```
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
    package static let parameterKeys = ["op"]

    package static let anyOperation = "any"
    package static let operations = ["read", "write", "sync", "truncate", "open", "lock", "delete", anyOperation]

    /// One of ``operations``.
    package var operation: String

    package init(operation: String) {
        self.operation = operation
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        operation = try parameters.requiredOneOf("op", Self.operations)
    }

    package var label: String { "\(Self.kind) \(operation)" }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        guard call.isOn(on) else { return false }
        if call.operation == .shmLock { return operation == StorageCall.Operation.lock.rawValue }
        return operation == Self.anyOperation ? call.isIO : call.operation.rawValue == operation
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(Self.code(for: call.operation))
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
        }
    }
}
