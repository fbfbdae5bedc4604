/// Durations as scenarios write them: `250ms`, `5s`, `1.5s`, `2m`, `1h`, and, where an
/// offset is meant (a clock jump), with a sign: `-1h`, `+30m`.
///
/// A number (digits, optionally a fraction of up to 9 digits) followed directly by a
/// unit: `ms`, `s`, `m` or `h`. Anything finer than a nanosecond is dropped. The
/// magnitude is limited to 1000 hours, far beyond any scenario timeout, so the
/// arithmetic cannot overflow.
package enum ScenarioDuration {
    /// The longest duration accepted anywhere: 1000 hours.
    package static let maximum: Duration = .seconds(1000 * 3600)

    package static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// The duration `text` spells, or nil when it is not one.
    package static func parse(_ text: String, allowingSign: Bool = false) -> Duration? {
        var body = Substring(text.trimmingSpaces)
        var negative = false
        if let first = body.first, first == "-" || first == "+" {
            guard allowingSign else { return nil }
            negative = first == "-"
            body = body.dropFirst()
        }
        // Longest suffix first so that "ms" is not read as "m".
        guard let unit = units.sorted(by: { $0.suffix.count > $1.suffix.count }).first(where: { body.hasSuffix($0.suffix) }) else {
            return nil
        }
        let number = body.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let whole = parts.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCIIDigit),
              let wholeValue = Int64(whole)
        else { return nil }
        var fractionNanoseconds: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit),
                  let digits = Int64(fraction)
            else { return nil }
            var scale: Int64 = 1
            for _ in 0..<fraction.count { scale *= 10 }
            // unit × digits / scale, split so that no product overflows (unit ≤ 3.6e12, digits < 1e9).
            fractionNanoseconds = (unit.nanoseconds / scale) * digits + (unit.nanoseconds % scale) * digits / scale
        }
        let (wholeNanoseconds, overflow) = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !overflow else { return nil }
        let (total, overflow2) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        guard !overflow2 else { return nil }
        let duration = Duration.nanoseconds(negative ? -total : total)
        guard duration <= maximum, duration >= .zero - maximum else { return nil }
        return duration
    }

    /// Like ``parse(_:allowingSign:)``, or a located ``ScenarioError`` that says what
    /// a duration looks like.
    package static func parse(_ text: String, allowingSign: Bool = false, at location: SourceLocation) throws(ScenarioError) -> Duration {
        guard let duration = parse(text, allowingSign: allowingSign) else {
            let signed = allowingSign ? ", optionally signed (-1h, +30m)" : ""
            let hint = !allowingSign && (text.hasPrefix("-") || text.hasPrefix("+")) ? " (a sign is not allowed here)" : ""
            throw ScenarioError(
                "expected a duration like 250ms, 5s, 1.5s, 2m or 1h\(signed), found '\(text)'\(hint)",
                at: location
            )
        }
        return duration
    }

    /// The shortest scenario spelling of `duration`: `250ms`, `5s`, `1.5s`, `2m`, `1h`, `-1h`.
    package static func format(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        guard !seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow else { return "\(seconds)s" }
        let total = duration.wholeNanoseconds
        let sign = total < 0 ? "-" : ""
        let magnitude = total.magnitude
        if magnitude == 0 { return "0s" }
        for (suffix, unit) in [("h", UInt64(3_600_000_000_000)), ("m", 60_000_000_000)] where magnitude % unit == 0 {
            return "\(sign)\(magnitude / unit)\(suffix)"
        }
        if magnitude >= 1_000_000_000 {
            return sign + decimal(magnitude, scale: 1_000_000_000) + "s"
        }
        return sign + decimal(magnitude, scale: 1_000_000) + "ms"
    }

    /// A measured time in seconds with one decimal, as a person reads a wait: `29.9`.
    package static func seconds(_ duration: Duration) -> String {
        let tenths = (max(0, duration.wholeNanoseconds) + 50_000_000) / 100_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `value / scale` written with as few fraction digits as it needs.
    package static func decimal(_ value: UInt64, scale: UInt64) -> String {
        let whole = value / scale
        let fraction = value % scale
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction)
        let width = String(scale).count - 1
        digits = String(repeating: "0", count: max(0, width - digits.count)) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
