import ChaosTarget

/// The outcome of one case. An outcome is a value, not an error.
///
/// ```json
/// "verdict": "deviated"
/// ```
///
/// - `passed`: every expectation held.
/// - `deviated`: the system under test broke an expectation (a trap, a wrong
///   fallback, lost data, a slow recovery). This is what Chaos exists to find.
/// - `errored`: the harness itself failed (a worker that would not start, a
///   seam that could not be set up); the case says nothing about the app.
/// - `skipped`: the case did not run (a fault this platform cannot inject,
///   a filter); ``CaseReport/error`` says why.
/// - `interrupted`: the run was stopped (SIGINT) while the case ran.
package enum Verdict: String, Codable, Sendable, CaseIterable {
    case passed
    case deviated
    case errored
    case skipped
    case interrupted

    /// Whether the verdict should draw a reader's attention: deviated,
    /// errored or interrupted. The HTML "show only failures" filter keeps these.
    package var isFailure: Bool {
        switch self {
        case .passed, .skipped: false
        case .deviated, .errored, .interrupted: true
        }
    }
}
