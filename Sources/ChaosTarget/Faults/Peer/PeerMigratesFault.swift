/// Another process of the app, a newer version of it (an extension updated first, a
/// sibling app of the same group), opens the shared store and migrates it: in one
/// transaction, a table of its own, `PRAGMA user_version` + 1, and on a GRDB store a
/// migration of its own in `grdb_migrations` — what the app meets afterwards, open and
/// at its next launch, is a store newer than it knows.
///
/// ```yaml
/// - fault: peer-migrates
/// - stop
/// - launch                 # must open it, or say it is newer — never start over
/// ```
///
/// A running connection re-prepares its statements (`SQLITE_SCHEMA`) and goes on. The
/// defect to look for is a launch that takes a schema it does not know for one to
/// throw away: GRDB's `eraseDatabaseOnSchemaChange`, a development setting that ships
/// (GRDB's demo app sets it), erases the user's data when a newer version touched it.
package struct PeerMigratesFault: PeerFault {
    package static let kind = "peer-migrates"
    package static let family = FaultFamily.peer
    package static let summary = "A newer version of the app in another process migrates the shared store: a table of its own, user_version + 1, a GRDB migration the app does not know."
    package static let example = "- fault: peer-migrates"
    package static let parameterKeys: [String] = []
    package static let acceptsTrigger = false

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var label: String { Self.kind }

    package var plan: PeerPlan { PeerPlan(holding: nil, migrates: true) }
}

extension PeerMigratesFault: HuntedFault {
    package static let huntGroup = HuntGroup.peer
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
