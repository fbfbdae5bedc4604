/// A read returns fewer bytes than asked: the file ends early, as after a crash that
/// cut it or a sync that never reached the disk. SQLite's `SQLITE_IOERR_SHORT_READ`
/// path: the VFS zero-fills the buffer, as SQLite requires, and SQLite decides what a
/// page of zeros means (past the end of the database: an empty page).
///
/// ```yaml
/// - fault: short-read
///   on: store              # store | journal | wal | any (default any)
///   after: 2               # optional trigger: after, times, probability
///   times: 1
/// ```
public struct ShortReadFault: StorageFault {
    public static let kind = "short-read"
    public static let summary = "Make reads of the store's files come back short (SQLITE_IOERR_SHORT_READ, zero-filled)."
    public static let example = """
        - fault: short-read
          on: store
          times: 1
        """
    public static let parameterKeys: [String] = []

    public init() {}

    public init(parameters: ScenarioParameters) throws(ScenarioError) {}

    public var label: String { Self.kind }

    public func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        call.operation == .read && call.isOn(on)
    }

    public func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(StorageEffect.Code.ioErrorShortRead)
    }
}
