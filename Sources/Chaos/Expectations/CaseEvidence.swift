import ChaosTarget

/// What a case left behind for the expectations to judge, gathered by the runner.
package struct CaseEvidence: Sendable {
    /// The worker trapped (signal 4/5/6/7/8/11).
    package var trap: TrapRecord?
    /// The worker ended some other unexpected way, or hung and was killed.
    package var abnormalEnd: AppEnd?
    /// The `health` reply of the last launch.
    package var health: [String: ScenarioValue]?
    /// The `surfaced` probe at the end of the case.
    package var surfaced: [String: ScenarioValue]?
    /// Named checkpoints: table → record key → row.
    package var checkpoints: [String: [String: [String: String]]] = [:]
    /// The snapshot taken at the end of the case.
    package var finalSnapshot: [String: [String: String]]?
    package var acknowledged: RecordKeys = []
    /// The digest of each acknowledged record's value, where the app gave it
    /// (`call.acknowledge(key, value:)`): kept means kept with that value.
    package var acknowledgedValues: [String: UInt64] = [:]
    /// Acknowledged records with a value that an action then set out to write again
    /// (`call.attempt` of an acknowledged key) and never acknowledged anew: the rewrite
    /// may or may not have landed, so either value is theirs.
    package var rewriting: Set<String> = []
    /// Records acknowledged before a launch whose health told the user of a problem with
    /// their data (a warning or an error), and that launch's message: a loss of those
    /// was not silent, though a later launch shows nothing.
    package var toldAtLaunch: RecordKeys = []
    package var launchMessage: String?
    package var attempted: RecordKeys = []
    package var removed: Set<String> = []
    /// Deletes announced (`call.removing`) and never confirmed: the action was cut or
    /// failed, so each record may be there or not.
    package var removing: Set<String> = []
    /// Actions whose writes may or may not have reached the disk (Jepsen's `:info`): cut
    /// by a power loss before they answered, or answered with a failure. The records
    /// they may have written are indeterminate, never unexpected.
    package var unresolvedActions: [String] = []
    /// From the last launch (or clear) to the first successful read after it.
    package var recoveryMs: Int?
    /// Why recovery was not measured, when it was not.
    package var recoveryMissing: String?
    /// The longest the app took to answer one launch or action, and which: an app that
    /// stops answering for seconds has not recovered, whenever its recovery is measured.
    package var slowestAnswer: SlowAnswer?
    /// `integrity_check` result: nil passed; otherwise what failed.
    package var integrityProblem: String?
    package var integrityChecked = false
    /// Why no integrity check applies (a target without SQLite); nil when one does.
    package var integrityNotApplicable: String?
    /// Whether the app had the store open at the end of the case (its last launch);
    /// nil when not looked at.
    package var storeInUse: Bool?
    /// Probe answers for `state:` expectations.
    package var probes: [String: ScenarioValue] = [:]
    /// Why the end-of-case evidence could not be gathered, if it could not.
    package var evidenceGap: MissingEvidence?
    /// The text arguments of the scenario's actions: what the user typed.
    package var userInput: [UserContent] = []
    /// The records the app logged through swift-log, in the order they came.
    package var logs: [LogEntry] = []
    /// Records past ``LogEntry/keptPerCase``, counted and not kept.
    package var logsDropped = 0
    /// Why the app's logs are not read (a target that bootstraps swift-log itself);
    /// nil when they are.
    package var logsNotRead: String?
    /// The power went out during the case (a power loss fired).
    package var powerWentOut = false
    /// The tracked writes and syncs of the run a power cut ended, as its last answer
    /// before the cut counted them (nil: not tracked): what explains a loss at the cut.
    package var writesBeforeCut: Int?
    package var syncsBeforeCut: Int?
    /// The durability settings the app gave its store, as the worker last reported them.
    package var storeSettings: StoreSettings?
    /// Folders outside its data folder where the app made or wrote files while the libc
    /// seam watched (the first few): where its files went when no fault reached them.
    package var filesElsewhere: [String] = []
    /// File calls the seams saw under the data folder in the app's last run, as its last
    /// answer counted them (nil: no seam counted): none, with files elsewhere, means the
    /// app never met what Chaos did to its data folder.
    package var callsUnderDataFolder: Int?
    /// The records the app makes by itself: never unexpected.
    package var ownRecords = OwnRecords()
    /// The files Chaos damaged, in order, and what became of them (``FileDamageMark``).
    package var damages: [FileDamageMark] = []
    /// Every fault but file damage was cleared before the case's last launch (set from
    /// the scenario's steps): what the app meets there is what it can heal from.
    package var healedBeforeLastLaunch = false
    /// What the app claimed, at the end of the case, is kept on each remote: its name →
    /// record keys (nil: not asked, or not answered).
    package var claims: [String: [String]]?
    /// What each remote it claimed records on held then, by its declared snapshot (a
    /// remote left out: it declares no snapshot, or did not answer).
    package var remoteHolds: [String: Set<String>] = [:]

    package init() {}

    /// Record keys of the final snapshot, table by table (a key two tables hold, twice),
    /// read in place: a million-record snapshot is not copied into a set of its keys.
    package var presentKeys: some Sequence<String> {
        (finalSnapshot ?? [:]).values.lazy.flatMap(\.keys)
    }

    /// The final snapshot's row of this key, from the first table that holds it.
    package func finalRow(_ key: String) -> String? {
        guard let snapshot = finalSnapshot else { return nil }
        for table in snapshot.values { if let row = table[key] { return row } }
        return nil
    }

    /// Whether the final snapshot holds a record with this key, in any table.
    package func isPresent(_ key: String) -> Bool {
        finalSnapshot?.values.contains { $0[key] != nil } ?? false
    }
}

/// Why the end-of-case evidence could not be gathered: the words a report shows, and the
/// app's end that kept it, if one did (what ``EvidenceGap/appEnd`` carries).
package struct MissingEvidence: Sendable, Equatable {
    package var text: String
    package var appEnd: AppEndKind?

    package init(text: String, appEnd: AppEndKind? = nil) {
        self.text = text
        self.appEnd = appEnd
    }

    /// The app's end kept the evidence from being gathered: `not reached: the app trapped`.
    package static func notReached(_ end: AppEndKind) -> MissingEvidence {
        let words = switch end {
        case .trapped: "the app trapped"
        case .hung: "the app hung"
        case .ended: "the app ended unexpectedly"
        }
        return MissingEvidence(text: "not reached: " + words, appEnd: end)
    }
}
