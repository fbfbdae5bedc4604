import Foundation

/// The device's wall clock runs fast or slow: a drifting clock that no one corrects.
///
/// ```yaml
/// - fault: clock-skew
///   rate: 2x           # fake seconds per real second: 2x, 0.5x, 1.5x (0.01x to 100x)
/// ```
///
/// A rate only: a fixed offset is `clock-jump`'s job. The rate runs from this step,
/// from the clock's reading at that moment, and keeps running across relaunches.
/// `clear: clock-skew` brings the rate back to 1x and keeps the time gained or lost.
///
/// libfaketime also scales the app's relative libc waits by the rate (`nanosleep`,
/// `poll`, `select` timeouts; SQLite's busy handler sleeps through them): that is part
/// of a fast clock as libfaketime fakes it. `Task.sleep` and `ContinuousClock` stay real.
package struct ClockSkewFault: ClockFault {
    package static let kind = "clock-skew"
    package static let summary = "Make the app's wall clock run fast or slow (rate: 2x, 0.5x); timers stay real."
    package static let example = """
        - fault: clock-skew
          rate: 2x
        """
    package static let parameterKeys = ["rate"]
    package static let rates: ClosedRange<Double> = 0.01...100

    package var rate: Double

    package init(rate: Double) {
        self.rate = rate
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        let text = try parameters.requiredString("rate")
        guard let rate = Self.parseRate(text) else {
            throw parameters.error("'rate' of \(parameters.context): expected a rate like 2x, 0.5x or 1.5x, found '\(text)'", at: "rate")
        }
        guard Self.rates.contains(rate) else {
            throw parameters.error("'rate' of \(parameters.context) must be from 0.01x to 100x, found '\(text)'", at: "rate")
        }
        self.rate = rate
    }

    /// `2x` → 2, `0.5x` → 0.5; digits with at most one `.`, then `x`.
    package static func parseRate(_ text: String) -> Double? {
        let body = text.trimmingSpaces
        guard body.hasSuffix("x") else { return nil }
        let number = body.dropLast()
        guard !number.isEmpty, !number.hasPrefix("."), !number.hasSuffix("."),
              number.filter({ $0 == "." }).count <= 1,
              number.allSatisfy({ $0.isASCIIDigit || $0 == "." }) else { return nil }
        return Double(number)
    }

    package var label: String { "\(Self.kind) \(FakeWallClock.format(rate: rate))" }

    package func applied(to clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        next.rate = rate
        return next
    }

    package static func cleared(_ clock: FakeWallClock, at now: Date) -> FakeWallClock {
        var next = clock.rebased(at: now)
        next.rate = 1
        return next
    }
}
