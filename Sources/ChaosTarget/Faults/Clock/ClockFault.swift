import Foundation

/// A fault on the app's wall clock, carried out through libfaketime in the worker
/// (`Seams/Clock`). It acts once, when its step runs, so it takes no trigger; the
/// app may be running or not (a running app sees the change on its next reading).
///
/// It decides the clock that follows its step (``applied(to:at:)``) and the clock
/// that follows `clear: <kind>` (``cleared(_:at:)``); both are pure, so they are
/// tested without libfaketime. Each new clock fault changes the clock from where it
/// is: two `clock-jump by: -1h` make two hours.
package protocol ClockFault: Fault {
    /// The clock after this step, run at real instant `now`.
    func applied(to clock: FakeWallClock, at now: Date) -> FakeWallClock
    /// The clock after `clear: <this kind>` at real instant `now`.
    static func cleared(_ clock: FakeWallClock, at now: Date) -> FakeWallClock
}

extension ClockFault {
    package static var family: FaultFamily { .clock }
    package static var acceptsTrigger: Bool { false }
}

/// The clock after `clear: KIND` (a clock kind) or `clear: all` (nil).
package enum ClockClearing {
    package static func cleared(_ clock: FakeWallClock, kind: String?, at now: Date) -> FakeWallClock {
        guard let kind else { return .real }
        guard let type = FaultCatalog.kind(named: kind) as? any ClockFault.Type else { return clock }
        return type.cleared(clock, at: now)
    }
}
