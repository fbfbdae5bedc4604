import ChaosTarget
import Foundation
import GRDB
import SystemUnderTest

/// The clocks of the app, as clock faults change them (or must not): what the wall
/// clock reads, to Foundation and to SQLite, and how long a sleep really takes.
///
/// Probes: `clock.now` (Foundation `Date`, ISO-8601 UTC with milliseconds) and
/// `clock.sqlite-now` (SQLite's `datetime('now')`, UTC, to the second). Action:
/// `clock.sleep` `{ms: 200}` sleeps with `Task.sleep` and answers the milliseconds it
/// took on `ContinuousClock`: under a faked wall clock it must still take about `ms`.
@MainActor
final class ClockDriver: FeatureDriver {
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        action("clock.sleep", [.int("ms", in: 0...10_000)]) { _, call, _ in
            let requested = try call.int("ms", default: 200, in: 0...10_000)
            let clock = ContinuousClock()
            let start = clock.now
            try await Task.sleep(for: .milliseconds(requested))
            return .done(.int((clock.now - start).wholeMilliseconds))
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        probe("clock.now") { _, _ in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return .string(formatter.string(from: Date()))
        },
        probe("clock.sqlite-now") { _, _ in
            // Its own in-memory database: the answer must not depend on the store's state.
            let database = try DatabaseQueue()
            return try await database.read { db in
                try String.fetchOne(db, sql: "SELECT datetime('now')").map(ScenarioValue.string) ?? .null
            }
        },
    ]

    func surfaced(app: ChaosApp) -> Surfaced { .nothing }
}
