/// Another process holds the database lock: taking the write lock fails with
/// `SQLITE_BUSY` (after the app's own busy timeout, if it has one).
///
/// ```yaml
/// - fault: busy
///   times: 3
/// ```
///
/// Its operations are the requests for the write lock: `xLock` to RESERVED or above
/// (rollback-journal databases, GRDB's DatabaseQueue) and, in WAL mode, the WAL write
/// lock (slot 0 of the `-shm`, taken through the database's handle: GRDB's
/// DatabasePool writer). Readers take neither, so reads go on working. `on: store` or
/// `any` means both, `on: wal` only the WAL write lock. SQLite's busy handler retries
/// as it would for a real competing writer.
public struct BusyFault: StorageFault {
    public static let kind = "busy"
    public static let summary = "Make taking the store's write lock fail with SQLITE_BUSY, as when another process holds it."
    public static let example = """
        - fault: busy
          times: 3
        """
    public static let parameterKeys: [String] = []

    public init() {}

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        if try parameters.string("on") == StorageFile.journal.rawValue {
            throw parameters.error("busy is about the write lock of the store or the WAL, not the journal: use on: store, wal or any", at: "on")
        }
    }

    public var label: String { Self.kind }

    public func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        switch call.operation {
        case .lock:
            return call.amount >= StorageCall.reservedLockLevel && on != .wal && call.isOn(on)
        case .shmLock:
            return call.offset == 0 && call.file == .store && on != .journal
        default:
            return false
        }
    }

    public func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(StorageEffect.Code.busy)
    }
}
