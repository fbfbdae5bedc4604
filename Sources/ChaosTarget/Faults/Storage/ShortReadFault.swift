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
package struct ShortReadFault: StorageFault {
    package static let kind = "short-read"
    package static let summary = "Make reads of the store's files come back short (SQLITE_IOERR_SHORT_READ, zero-filled)."
    package static let example = """
        - fault: short-read
          on: store
          times: 1
        """
    package static let parameterKeys: [String] = []

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var label: String { Self.kind }

    package var operations: Set<StorageCall.Operation> { [.read] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        call.operation == .read && call.isOn(on)
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(StorageEffect.Code.ioErrorShortRead)
    }
}

extension ShortReadFault: HuntedFault {
    package static let huntGroup = HuntGroup.storage
    package static let huntWeight = 50
    /// A file reads short only at its end: short on every read while its size says
    /// otherwise is a state no file system presents (SQLite's WAL reader loops on it 10 s).
    package static let firesAFewTimes = true

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("times", .int(1 + draws.below(3)))]
    }
}
