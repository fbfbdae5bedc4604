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
package struct BusyFault: StorageFault {
    package static let kind = "busy"
    package static let summary = "Make taking the store's write lock fail with SQLITE_BUSY, as when another process holds it."
    package static let example = """
        - fault: busy
          times: 3
        """
    package static let parameterKeys: [String] = []

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        if try parameters.string("on") == StorageFile.journal.rawValue {
            throw parameters.error("busy is about the write lock of the store or the WAL, not the journal: use on: store, wal or any", at: "on")
        }
    }

    package var label: String { Self.kind }

    package var operations: Set<StorageCall.Operation> { [.lock, .shmLock] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        switch call.operation {
        case .lock:
            return call.amount >= StorageCall.reservedLockLevel && on != .wal && call.isOn(on)
        case .shmLock:
            return call.offset == 0 && call.file == .store && on != .journal
        default:
            return false
        }
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(StorageEffect.Code.busy)
    }
}

extension BusyFault: HuntedFault {
    package static let huntGroup = HuntGroup.storage
    package static let huntWeight = 50
    /// A lock another process holds for good is no fault an app recovers from within 5 s:
    /// SQLite itself retries a WAL read for about 10 s before it gives up.
    package static let firesAFewTimes = true

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("times", .int(1 + draws.below(3)))]
    }
}
