import ChaosTarget

/// How one step went (``StepRecord/outcome``); the raw values are the report's words.
package enum StepOutcome: String, Sendable, Codable, CaseIterable {
    case ok
    case error
    /// An error the step declared with `expect-error:`.
    case expectedError = "expected-error"
    case trapped
    case timedOut = "timed-out"
    /// The power went out during the step (a `power-loss` armed earlier fired).
    case powerLost = "power-lost"
    /// Not run: the power was out, the app down until the next launch.
    case skipped
    /// A step with `expect-error: true` succeeded.
    case unexpectedSuccess = "unexpected-success"
}

/// What a step came to: its outcome, a line of detail for the report, and for a launch
/// the storage mode the app reported.
struct StepResult {
    var outcome: StepOutcome
    var detail: String?
    var mode: String?

    init(_ outcome: StepOutcome = .ok, _ detail: String? = nil) {
        self.outcome = outcome
        self.detail = detail
    }

    static func ok(_ detail: String? = nil) -> StepResult { StepResult(.ok, detail) }
}

/// Why a case stopped before its last step. Thrown by the parts of the runner and
/// caught by the step loop, which records the step's outcome and ends the case; the
/// verdict then follows from the evidence (a trap or a hang is the app's failure,
/// ``harness(_:)`` is Chaos's own).
enum CaseEnd: Error, Equatable {
    /// The app trapped; the evidence holds the trap.
    case trapped
    /// The app stopped answering and was killed, or ended some other way: the
    /// evidence says how.
    case appFailed
    /// The case reached its timeout.
    case timedOut
    /// The harness itself failed: errored, with this reason.
    case harness(String)
    /// Ctrl-C.
    case interrupted
    /// The case does not apply to this app (a file fault on a file it does not keep,
    /// `if-absent: skip`): skipped, with the reason.
    case notApplicable(String)

    /// The outcome of the step during which the case ended.
    var stepOutcome: StepOutcome {
        switch self {
        case .trapped: .trapped
        case .timedOut: .timedOut
        case .appFailed, .harness, .interrupted: .error
        case .notApplicable: .skipped
        }
    }

    /// The detail of the step during which the case ended; `abnormalEnd`: how the app
    /// ended, as its evidence says.
    func stepDetail(abnormalEnd: String?) -> String? {
        switch self {
        case let .harness(reason), let .notApplicable(reason): reason
        case .interrupted: "interrupted"
        case .trapped, .appFailed, .timedOut: abnormalEnd
        }
    }
}
