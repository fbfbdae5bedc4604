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
/// code: "the Nth I/O operation" of `chaos explore --sweep io`.
public struct IOErrorFault: StorageFault {
    public static let kind = "io-error"
    public static let summary = "Fail one kind of file operation with SQLite's I/O error code (IOERR_READ, IOERR_FSYNC...)."
    public static let example = """
        - fault: io-error
          op: read
          on: store
        """
    public static let parameterKeys = ["op"]

    public static let anyOperation = "any"
    public static let operations = ["read", "write", "sync", "truncate", "open", "lock", "delete", anyOperation]

    /// One of ``operations``.
    public var operation: String

    public init(operation: String) {
        self.operation = operation
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        operation = try parameters.requiredOneOf("op", Self.operations)
    }

    public var label: String { "\(Self.kind) \(operation)" }

    public func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        guard call.isOn(on), call.operation != .shmLock else { return false }
        return operation == Self.anyOperation ? call.isIO : call.operation.rawValue == operation
    }

    public func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(Self.code(for: call.operation))
    }

    /// The extended result code of a failed `operation`.
    static func code(for operation: StorageCall.Operation) -> Int32 {
        typealias Code = StorageEffect.Code
        switch operation {
        case .read: return Code.ioErrorRead
        case .write: return Code.ioErrorWrite
        case .sync: return Code.ioErrorFsync
        case .truncate: return Code.ioErrorTruncate
        case .delete: return Code.ioErrorDelete
        case .lock, .shmLock: return Code.ioErrorLock
        case .open: return Code.cantOpen
        }
    }
}
