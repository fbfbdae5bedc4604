/// Memory runs short: SQLite cannot allocate what a call needs, and the app's statement
/// fails with `SQLITE_NOMEM` — transient (`times:`), or until cleared. In the fault VFS
/// an open answers `SQLITE_NOMEM` and a read or write `SQLITE_IOERR_NOMEM`, which
/// SQLite reports to the app as `SQLITE_NOMEM`; in the libc seam the call fails with
/// `ENOMEM`.
///
/// ```yaml
/// - fault: memory-pressure
///   times: 3               # optional trigger: after, times, probability
/// ```
///
/// SQLite's own harness fails allocations at its allocator (`test/malloc_common.tcl`).
/// Chaos fails them where SQLite turns a failed allocation under its I/O into an error:
/// the count is exact, so `times:` means what it says, and one fault reaches every copy
/// of SQLite the fault VFS is installed into, with no more of its functions to name. A
/// Swift process whose own `malloc` fails simply dies (`swift_slowAlloc`): that end is
/// the system's, not a fault of the app's storage. What this holds an app to is the
/// defect its reports show: `SQLITE_NOMEM` taken for a damaged store, which is then
/// "repaired" — set aside, restored from an older backup, started over.
package struct MemoryPressureFault: StorageFault {
    package static let kind = "memory-pressure"
    package static let summary = "Run short of memory: SQLite's opens, reads and writes fail with SQLITE_NOMEM (ENOMEM in libc)."
    package static let example = """
        - fault: memory-pressure
          times: 3
        """
    package static let parameterKeys: [String] = []

    /// `SQLITE_NOMEM`, an open's answer; `SQLITE_IOERR_NOMEM`, a read's or a write's.
    package static let noMemory: Int32 = 7
    package static let ioErrorNoMemory: Int32 = 10 | (12 << 8)  // 3082

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var label: String { Self.kind }

    package var operations: Set<StorageCall.Operation> { [.open, .read, .write] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout NoMemory) -> Bool {
        operations.contains(call.operation) && call.isOn(on)
    }

    package func effect(of call: StorageCall, memory: inout NoMemory, rng: inout SplitMix64) -> StorageEffect {
        .fail(call.operation == .open ? Self.noMemory : Self.ioErrorNoMemory, errno: .enomem)
    }
}

extension MemoryPressureFault: HuntedFault {
    package static let huntGroup = HuntGroup.storage
    package static let huntWeight = 25
    /// Memory short for good is a state no app gets out of by itself: a hunt lets it
    /// fail a few calls, as a passing spike does.
    package static let firesAFewTimes = true

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("times", .int(1 + draws.below(3)))]
    }
}
