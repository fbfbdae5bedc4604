/// An I/O operation fails with SQLite's extended I/O error code for it.
///
/// ```yaml
/// - fault: io-error
///   op: sync               # read | write | sync | truncate | open | lock | delete
///   on: store              # store | journal | wal | any (default any)
///   times: 1
/// ```
public struct IOErrorFault: Fault {
    public static let kind = "io-error"
    public static let family = FaultFamily.storage
    public static let summary = "Fail one kind of file operation with SQLite's I/O error code (IOERR_READ, IOERR_FSYNC...)."
    public static let example = """
        - fault: io-error
          op: read
          on: store
        """
    public static let parameterKeys = ["op"]
    public static let acceptsTrigger = true
    public static let acceptsStorageFile = true

    public static let operations = ["read", "write", "sync", "truncate", "open", "lock", "delete"]

    public var operation: String

    public init(operation: String) {
        self.operation = operation
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        operation = try parameters.requiredOneOf("op", Self.operations)
    }

    public var label: String { "\(Self.kind) \(operation)" }
}
