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
    /// How it went: `ok`, `error`, `trapped`, `timed-out`… (``StepOutcome``).
    package var outcome: StepOutcome
    @ExplicitNull package var detail: String?
    /// What the seams saw the app do to its files during the step, each distinct call
    /// with its result and count (``SeamCall``); absent when they saw nothing.
    package var calls: [SeamCall]?
    /// For a launch: the storage mode the app reported (`persistent`, `in-memory`…, the
    /// target's own words); absent for any other step, or a launch that reported none.
    package var mode: String?
    /// For an action: the kinds of the errors the app answered when it failed (its
    /// technical error, else what it told the user, paths cut to file names and numbers
    /// made `N`: ``TrapErrorKind``), each once, the first few; absent when none failed.
    package var appErrors: [String]?

    package init(index: Int, label: String, startMs: Int, durationMs: Int, outcome: StepOutcome, detail: String? = nil,
                 calls: [SeamCall]? = nil, mode: String? = nil, appErrors: [String]? = nil) {
        self.index = index
        self.label = label
        self.startMs = startMs
        self.durationMs = durationMs
        self.outcome = outcome
        self.detail = detail
        self.calls = calls
        self.mode = mode
        self.appErrors = appErrors
    }

}
