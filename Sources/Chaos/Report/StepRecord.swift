import ChaosTarget

/// One scenario step as it ran.
///
/// ```json
/// { "index" : 5, "label" : "launch", "startMs" : 412, "durationMs" : 96,
///   "outcome" : "trapped", "detail" : null }
/// ```
package struct StepRecord: Codable, Sendable, Equatable {
    /// Position in the scenario's `steps`, from 1.
    package var index: Int
    /// The step as a reader would write it: `launch`, `do: favorites.add`.
    package var label: String
    /// Milliseconds since the case started.
    package var startMs: Int
    package var durationMs: Int
    /// One of the ``Outcome`` wire names.
    package var outcome: String
    @ExplicitNull package var detail: String?

    /// The wire names of ``outcome``.
    package enum Outcome {
        package static let ok = "ok"
        package static let error = "error"
        /// An error the step declared with `expect-error:`.
        package static let expectedError = "expected-error"
        package static let trapped = "trapped"
        package static let timedOut = "timed-out"
        /// The power went out during the step (a `power-loss` armed earlier fired).
        package static let powerLost = "power-lost"
        /// Not run: the power was out, the app down until the next launch.
        package static let skipped = "skipped"
        /// A step with `expect-error: true` succeeded.
        package static let unexpectedSuccess = "unexpected-success"
    }

    package init(index: Int, label: String, startMs: Int, durationMs: Int, outcome: String, detail: String? = nil) {
        self.index = index
        self.label = label
        self.startMs = startMs
        self.durationMs = durationMs
        self.outcome = outcome
        self.detail = detail
    }

}
