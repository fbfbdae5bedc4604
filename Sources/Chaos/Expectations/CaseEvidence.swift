/// What a case left behind for the expectations to judge, gathered by the runner.
public struct CaseEvidence: Sendable {
    /// The worker trapped (signal 4/5/6/7/8/11).
    public var trap: TrapRecord?
    /// The worker ended some other unexpected way, or hung and was killed.
    public var abnormalEnd: String?
    /// The `health` reply of the last launch.
    public var health: [String: ScenarioValue]?
    /// The `surfaced` probe at the end of the case.
    public var surfaced: [String: ScenarioValue]?
    /// Named checkpoints: table → record key → row.
    public var checkpoints: [String: [String: [String: String]]] = [:]
    /// The snapshot taken at the end of the case.
    public var finalSnapshot: [String: [String: String]]?
    public var acknowledged: Set<String> = []
    public var attempted: Set<String> = []
    public var removed: Set<String> = []
    /// From the last launch (or clear) to the first successful read after it.
    public var recoveryMs: Int?
    /// Why recovery was not measured, when it was not.
    public var recoveryMissing: String?
    /// `integrity_check` result: nil passed; otherwise what failed.
    public var integrityProblem: String?
    public var integrityChecked = false
    /// Probe answers for `state:` expectations.
    public var probes: [String: ScenarioValue] = [:]
    /// Why the end-of-case evidence could not be gathered, if it could not.
    public var evidenceGap: String?

    public init() {}

    /// Record keys present in the final snapshot.
    public var presentKeys: Set<String> {
        Set((finalSnapshot ?? [:]).values.flatMap(\.keys))
    }
}
