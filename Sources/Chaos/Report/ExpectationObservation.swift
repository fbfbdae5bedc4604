import ChaosTarget

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

    /// At most this many keys of each kind: enough to look up, not a copy of the data.
    package static let keysKept = 20

    /// The set check's keys, each list cut to ``keysKept``.
    static func records(_ check: AcknowledgedSetCheck) -> ExpectationObservation {
        .records(lost: Array(check.lost.prefix(keysKept)), corrupted: Array(check.corrupted.prefix(keysKept)),
                 unexpected: Array(check.unexpected.prefix(keysKept)), indeterminate: Array(check.indeterminate.prefix(keysKept)))
    }
}
