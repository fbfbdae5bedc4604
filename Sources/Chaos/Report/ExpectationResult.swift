import ChaosTarget

/// One expectation, checked.
///
/// ```json
/// { "kind" : "fallback", "label" : "fallback: restored-from-backup", "passed" : false,
///   "expected" : "restored-from-backup", "observed" : "in-memory", "detail" : null }
/// ```
package struct ExpectationResult: Codable, Sendable, Equatable {
    /// The expectation's wire name: `no-trap`, `fallback`, `recovered-within`…
    package var kind: String
    /// As the scenario wrote it: `fallback: in-memory`.
    package var label: String
    package var passed: Bool
    package var expected: String
    package var observed: String
    @ExplicitNull package var detail: String?
    /// For an expectation on the acknowledged records (`no-silent-loss`,
    /// `preserved: acknowledged`): what the set check counted, as numbers.
    package var records: RecordCounts?
    /// A failed `no-trap` whose app hung or ended without a trap: how it ended.
    package var end: AppEnd?
    /// Why it could not be judged on the evidence it needs, when it could not.
    package var gap: EvidenceGap?
    /// A loss whose cause the evidence names.
    package var lossCause: LossCause?
    /// What it saw, as values (``ExpectationObservation``); nil for `no-trap` (``end``
    /// and the case's trap say it) and the log expectations.
    package var observation: ExpectationObservation?

    package init(kind: String, label: String, passed: Bool, expected: String, observed: String, detail: String? = nil) {
        self.kind = kind
        self.label = label
        self.passed = passed
        self.expected = expected
        self.observed = observed
        self.detail = detail
    }

    /// What an expectation on the app's data says it saw when the final snapshot could
    /// not be taken: the harness's gap, not the app's failure (``gap`` says it, typed).
    package static let noFinalSnapshot = "no final snapshot"

    /// Failed only because the app trapped, hung or ended before the evidence it needs:
    /// a person reads the trap, once, not the same cause again under every expectation.
    package var wasNotReached: Bool {
        !passed && kind != ExpectationKeyword.noTrap.rawValue && gap?.appEnd != nil
    }

    /// Failed for want of the final snapshot: there was no data to judge.
    package var lacksFinalSnapshot: Bool { !passed && gap?.finalSnapshot == true }
}

/// What the set check counted of a case's acknowledged records: the numbers behind the
/// words of `no-silent-loss` and `preserved: acknowledged`, for tools and tallies.
package struct RecordCounts: Codable, Sendable, Equatable {
    package var acknowledged: Int
    package var lost: Int
    /// Present, but not with the value acknowledged.
    package var corrupted: Int
    package var unexpected: Int
    package var indeterminate: Int
    package var recovered: Int
    package var resurrected: Int

    init(_ check: AcknowledgedSetCheck) {
        acknowledged = check.acknowledgedCount
        lost = check.lost.count
        corrupted = check.corrupted.count
        unexpected = check.unexpected.count
        indeterminate = check.indeterminate.count
        recovered = check.recovered.count
        resurrected = check.resurrected.count
    }
}

/// What an expectation saw, as values: the numbers, keys and names its words
/// (``ExpectationResult/observed``, ``ExpectationResult/detail``) say for a person. A
/// tool, a tally or a hunt reads these; the words may change from one version to the
/// next.
///
/// ```json
/// "observation" : { "duration" : { "ms" : 5730, "boundMs" : 5000 } }
/// ```
package enum ExpectationObservation: Codable, Sendable, Equatable {
    /// `recovered-within`, `responsive-within`: the time measured (nil: none was) against
    /// the bound, and the slowest answer of the case when it took longer than the bound.
    case duration(ms: Int?, boundMs: Int, slowestMs: Int?)
    /// `fallback`: the storage mode the last launch reported (nil: it reported none).
    case mode(reported: String?)
    /// `surfaced`: the severity and message the app showed (nil: nothing reported).
    case surfaced(severity: String?, message: String?)
    /// `preserved: CHECKPOINT`: the checkpoint's record count, and the keys missing or
    /// changed at the end (the first ``keysKept`` of each).
    case checkpoint(total: Int, missing: [String], changed: [String])
    /// `preserved: acknowledged`, `no-silent-loss`: the keys of each kind the set check
    /// found (the first ``keysKept`` of each); the counts are ``ExpectationResult/records``.
    case records(lost: [String], corrupted: [String], unexpected: [String], indeterminate: [String])
    /// `state:`: the probe's answer (nil: not answered).
    case probe(answer: ScenarioValue?)
    /// `records-at-least`: the records the final snapshot held (nil: not read).
    case held(records: Int?)
    /// `integrity`: what `integrity_check` found (nil: ok, or not checked: see the words).
    case integrity(problem: String?)
    /// `live-after-healing`: whether the case healed before its last launch (nil: it did
    /// not, or left no good copy: not held), that launch's mode and severity.
    case healing(held: Bool, mode: String?, severity: String?)
    /// `damaged-kept`: the files the app could not read after their damage and that are
    /// nowhere in its data folder at the end.
    case destroyed(files: [String])
    /// `claims-hold`: the records the app claimed are on a remote and its snapshot lacks
    /// (remote → keys, the first ``keysKept`` of each).
    case claims(missing: [String: [String]])

    /// At most this many keys of each kind: enough to look up, not a copy of the data.
    package static let keysKept = 20

    /// The set check's keys, each list cut to ``keysKept``.
    static func records(_ check: AcknowledgedSetCheck) -> ExpectationObservation {
        .records(lost: Array(check.lost.prefix(keysKept)), corrupted: Array(check.corrupted.prefix(keysKept)),
                 unexpected: Array(check.unexpected.prefix(keysKept)), indeterminate: Array(check.indeterminate.prefix(keysKept)))
    }
}
