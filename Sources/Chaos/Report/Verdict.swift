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
/// - `inconclusive`: every expectation held, but a fault had no effect the app could
///   observe (a point never reached, damage where SQLite does not read): the case
///   proves nothing. ``CaseReport/error`` says which fault and why. It fails a gate
///   unless `--allow-inconclusive`.
/// - `skipped`: the case did not run (a fault this platform cannot inject,
///   a filter); ``CaseReport/error`` says why.
/// - `interrupted`: the run was stopped (SIGINT) while the case ran.
package enum Verdict: String, Codable, Sendable, CaseIterable {
    case passed
    case deviated
    case inconclusive
    case errored
    case skipped
    case interrupted

    /// Whether the verdict should draw a reader's attention: deviated,
    /// errored or interrupted. The HTML "show only failures" filter keeps these.
    package var isFailure: Bool {
        switch self {
        case .passed, .skipped: false
        case .deviated, .inconclusive, .errored, .interrupted: true
        }
    }
}
