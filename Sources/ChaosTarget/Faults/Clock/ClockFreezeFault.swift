import Foundation

/// The device's wall clock stops: a dead real-time-clock battery, a suspended VM, a
/// test double left in place. Every reading is the same instant.
///
/// ```yaml
/// - fault: clock-freeze
///   at: 2031-06-01 12:00:00    # optional, UTC (or 2031-06-01T12:00:00Z); default: where the clock is
/// ```
///
/// Without `at:` the clock stops at its reading when the step runs, to the second.
/// `clear: clock-freeze` starts it again where it would have been had it run on (real
/// time plus any jump and drift), as a clock that syncs again would.
package struct ClockFreezeFault: ClockFault {
    package static let kind = "clock-freeze"
    package static let summary = "Stop the app's wall clock, at a given UTC date or where it is; timers stay real."
    package static let example = """
        - fault: clock-freeze
          at: 2031-06-01 12:00:00
        """
    package static let parameterKeys = ["at"]
    /// Dates a frozen clock may show: after the epoch (libfaketime's absolute dates are
    /// unsigned in practice), before 2200.
    package static let years = 1971...2199

    /// The frozen reading; nil for "where the clock is when the step runs".
    package var at: Date?

    package init(at: Date? = nil) {
        self.at = at
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        guard let text = try parameters.string("at") else { return }
        guard let date = Self.parseDate(text) else {
            throw parameters.error(
                "'at' of \(parameters.context): expected a UTC date like 2031-06-01 12:00:00 or 2031-06-01T12:00:00Z, found '\(text)'",
                at: "at")
        }
        let year = Self.utcCalendar.component(.year, from: date)
        guard Self.years.contains(year) else {
            throw parameters.error("'at' of \(parameters.context) must be a date from 1971 to 2199, found '\(text)'", at: "at")
        }
        at = date
    }

    /// `YYYY-MM-DD hh:mm:ss` or `YYYY-MM-DDThh:mm:ss[Z]`, always UTC, so a scenario
    /// means the same instant on every machine.
    package static func parseDate(_ text: String) -> Date? {
        let body = text.trimmingSpaces
        let normal = body.hasSuffix("Z") ? String(body.dropLast()) : body
        guard normal.count == 19 else { return nil }
        let fields = normal.map { $0 }
        guard fields[10] == " " || fields[10] == "T" else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = fields[10] == "T" ? "yyyy-MM-dd'T'HH:mm:ss" : "yyyy-MM-dd HH:mm:ss"
        formatter.isLenient = false
        guard let date = formatter.date(from: normal), formatter.string(from: date) == normal else { return nil }
        return date
    }


    static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    package var label: String {
        at.map { "\(Self.kind) at \(FakeWallClock.format($0))" } ?? Self.kind
    }

    package func applied(to clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        let reading = at ?? clock.reading(at: now)
        next.frozenAt = Date(timeIntervalSince1970: reading.timeIntervalSince1970.rounded(.down))
        return next
    }

    package static func cleared(_ clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        next.frozenAt = nil
        return next
    }
}
