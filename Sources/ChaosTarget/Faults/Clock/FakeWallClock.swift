import Foundation

/// The wall clock the app sees, as a function of real time: what clock faults decide
/// and the clock seam hands to libfaketime.
///
/// Three parts: an offset from real time (jumps, plus the drift a rate has piled up),
/// a rate (1 is real speed), and an optional frozen reading. The offset is kept as of
/// a real instant, `since`, so a rate runs from the step that set it. It belongs to
/// the device, not to one launch of the app: a relaunched app reads the same clock.
///
/// Only the wall clock is faked (`Date`, `gettimeofday`, SQLite's `datetime('now')`).
/// `ContinuousClock`, `Task.sleep` and `asyncAfter` stay real: a fault that moved
/// them would hang the app, not test it (docs/ARCHITECTURE.md, "Clock").
package struct FakeWallClock: Sendable, Equatable {
    /// How far ahead (positive) or behind (negative) of real time the clock was at `since`.
    package var offset: Duration
    /// The real instant `offset` refers to.
    package var since: Date
    /// Fake seconds per real second; 1 is real speed.
    package var rate: Double
    /// The reading of a stopped clock, nil while it runs.
    package var frozenAt: Date?

    package init(offset: Duration = .zero, since: Date = Date(timeIntervalSince1970: 0), rate: Double = 1,
                frozenAt: Date? = nil) {
        self.offset = offset
        self.since = since
        self.rate = rate
        self.frozenAt = frozenAt
    }

    /// Real time, running at real speed.
    package static let real = FakeWallClock()

    package var isReal: Bool { offset == .zero && rate == 1 && frozenAt == nil }

    /// The running clock's offset at real instant `now` (a frozen clock's too, were it
    /// to start running again).
    package func offset(at now: Date) -> Duration {
        guard rate != 1 else { return offset }
        return offset + .seconds(now.timeIntervalSince(since) * (rate - 1))
    }

    /// What the app reads at real instant `now`.
    package func reading(at now: Date) -> Date {
        frozenAt ?? now.addingTimeInterval(offset(at: now).inSeconds)
    }

    /// The same clock with its offset taken at `now`: the point from which a change
    /// (a new rate, a jump) applies.
    package func rebased(at now: Date) -> FakeWallClock {
        var copy = self
        copy.offset = offset(at: now)
        copy.since = now
        return copy
    }

    /// What the app reads, for a report: `the app's clock is 1h behind real time`,
    /// `… is frozen at 2031-06-01 12:00:00Z`, `… runs at 2x, 5s ahead of real time`.
    package func describe(at now: Date) -> String {
        if let frozenAt { return "the app's clock is frozen at \(Self.format(frozenAt))" }
        let milliseconds = Int64((offset(at: now).inSeconds * 1000).rounded())
        let rounded = Duration.milliseconds(milliseconds.magnitude)
        let position = milliseconds == 0 ? "on real time"
            : "\(ScenarioDuration.format(rounded)) \(milliseconds < 0 ? "behind" : "ahead of") real time"
        return rate == 1 ? "the app's clock is \(position)" : "the app's clock runs at \(Self.format(rate: rate)), \(position)"
    }

    /// `2031-06-01 12:00:00Z`.
    package static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    /// `2x`, `0.5x`: the shortest spelling of a rate.
    package static func format(rate: Double) -> String {
        (rate == rate.rounded() ? String(Int(rate)) : String(rate)) + "x"
    }
}
