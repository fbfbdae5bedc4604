import Foundation

/// The device's wall clock jumps: a user sets it by hand, a time zone or daylight
/// saving change goes wrong, NTP corrects a clock that was far off.
///
/// ```yaml
/// - fault: clock-jump
///   by: -1h            # signed: -1h back, +30m forward; ms, s, m, h
/// ```
///
/// Jumps add up (`by: -1h` then `by: +1h` is real time again); a frozen clock jumps to
/// a new frozen reading. `clear: clock-jump` puts the clock right (offset zero) and
/// keeps any rate.
package struct ClockJumpFault: ClockFault {
    package static let kind = "clock-jump"
    package static let summary = "Move the app's wall clock by a signed duration (Date and SQLite's datetime('now'); timers stay real)."
    package static let example = """
        - fault: clock-jump
          by: -1h
        """
    package static let parameterKeys = ["by"]

    package var by: Duration

    package init(by: Duration) {
        self.by = by
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        guard let by = try parameters.duration("by", allowingSign: true) else {
            throw parameters.error("fault 'clock-jump' needs 'by:' (a signed duration like -1h or +30m)")
        }
        guard by != .zero else {
            throw parameters.error("'by' of \(parameters.context) is zero, so the clock would not move; use -1h, +30m, …", at: "by")
        }
        self.by = by
    }

    package var label: String {
        let text = ScenarioDuration.format(by)
        return "\(Self.kind) \(by > .zero ? "+" : "")\(text)"
    }

    package func applied(to clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        if let frozen = next.frozenAt {
            next.frozenAt = frozen.addingTimeInterval(by.inSeconds)
        } else {
            next.offset += by
        }
        return next
    }

    package static func cleared(_ clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        next.offset = .zero
        return next
    }
}

extension ClockJumpFault: HuntedFault {
    package static let huntGroup = HuntGroup.clock
    package static let huntWeight = 1
    /// Back an hour, on an hour, back a day, on a month, back half a minute.
    static let huntJumps = ["-1h", "+1h", "-24h", "+720h", "-30s"]

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("by", .string(draws.pick(huntJumps)))]
    }
}
