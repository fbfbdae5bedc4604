import Foundation
import ChaosTarget

/// The one line the clock seam writes to a case's libfaketime timestamp file
/// (`FAKETIME_TIMESTAMP_FILE`), re-read by the worker on every clock reading
/// (`FAKETIME_NO_CACHE=1`).
///
/// libfaketime 0.9.10's formats, as its README describes them:
///
/// | clock | line | libfaketime reads |
/// |---|---|---|
/// | running, offset Y | `-3600`, `+0`, `+1.5` | start + Y + (now − start), in seconds |
/// | running at rate R | `-3600 x2` | start + Y + (now − start) × R |
/// | frozen | `2031-06-01 12:00:00` | that instant, in the worker's local time zone |
///
/// "start" is when libfaketime started in the worker process, not when the rate was
/// set: the seam passes the offset the clock had at that start (``FakeWallClock/offset(at:)``),
/// which makes libfaketime's line agree with the clock at every later instant.
///
/// Once a line has said `xR`, libfaketime keeps that rate until a line says another
/// one: a line without `x` does not bring 1x back. So after any rate, lines say `x1`
/// explicitly (`withRate`).
enum FaketimeTimestamp {
    /// The line for `clock`, for a worker whose libfaketime started at `workerStart`.
    static func line(for clock: FakeWallClock, workerStart: Date, withRate: Bool,
                     timeZone: TimeZone = .current) -> String {
        if let frozen = clock.frozenAt { return date(frozen, timeZone: timeZone) }
        let offset = offset(clock.offset(at: workerStart))
        return withRate || clock.rate != 1 ? "\(offset) \(rate(clock.rate))" : offset
    }

    /// Signed seconds to the millisecond, as few digits as needed: `+0`, `-3600`, `+1.25`.
    static func offset(_ duration: Duration) -> String {
        let milliseconds = Int64((duration.inSeconds * 1000).rounded())
        let sign = milliseconds < 0 ? "-" : "+"
        let magnitude = milliseconds.magnitude
        var text = "\(sign)\(magnitude / 1000)"
        if magnitude % 1000 != 0 {
            var fraction = String(magnitude % 1000)
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += ".\(fraction)"
        }
        return text
    }

    /// `x2`, `x0.5`: a decimal point, whatever the locale (workers run in the C locale).
    static func rate(_ rate: Double) -> String {
        "x" + (rate == rate.rounded() ? String(Int(rate)) : String(rate))
    }

    /// `2031-06-01 12:00:00` in `timeZone` (libfaketime reads absolute dates with
    /// mktime, that is in local time), with `.250` when the instant has milliseconds.
    static func date(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded()) % 1000
        formatter.dateFormat = milliseconds == 0 ? "yyyy-MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: date)
    }
}
