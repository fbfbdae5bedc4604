/// Another process of the app is killed in the middle of a write to the shared store (the
/// system ends an extension over its memory or its time): Chaos's peer worker takes the
/// write lock, writes pages it never commits, and is sent SIGKILL. What it leaves — a hot
/// rollback journal, uncommitted frames in the WAL — is the app's to get over.
///
/// ```yaml
/// - fault: peer-killed-mid-write
/// - do: workload.write     # must save, and lose nothing saved before
/// ```
///
/// SQLite recovers from it by itself: the next connection that needs the store rolls
/// the journal back, or ignores frames never committed. The defect to look for is an
/// app that takes what it meets meanwhile (`SQLITE_BUSY`, a recovery in progress) for a
/// damaged store and sets it aside.
package struct PeerKilledMidWriteFault: PeerFault {
    package static let kind = "peer-killed-mid-write"
    package static let family = FaultFamily.peer
    package static let summary = "Another process of the app is killed in the middle of a write to the shared store, leaving what it had not committed."
    package static let example = "- fault: peer-killed-mid-write"
    package static let parameterKeys: [String] = []
    package static let acceptsTrigger = false

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var label: String { Self.kind }

    package var plan: PeerPlan { PeerPlan(holding: nil, uncommitted: true, killed: true) }
}

extension PeerKilledMidWriteFault: HuntedFault {
    package static let huntGroup = HuntGroup.peer
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
