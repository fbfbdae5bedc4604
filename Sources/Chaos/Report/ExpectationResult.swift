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

    package init(kind: String, label: String, passed: Bool, expected: String, observed: String, detail: String? = nil) {
        self.kind = kind
        self.label = label
        self.passed = passed
        self.expected = expected
        self.observed = observed
        self.detail = detail
    }

}
