import Foundation

/// The conversions of `Duration` the project needs, in one place: durations stay
/// `Duration` everywhere (STYLE.md) and become numbers only at the edges — a report's
/// milliseconds, a `poll` timeout, a `nanosleep`, arithmetic with `Date`.
///
/// `package`, not `public`: they are the project's own conventions, and an app that
/// links FaultPoints must not find them on the standard library's `Duration`.
extension Duration {
    /// The duration in whole milliseconds, truncated toward zero: what reports and
    /// timings print.
    package var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }

    /// Whole nanoseconds, truncated toward zero (saturating far beyond any fault's range).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ attoseconds / 1_000_000_000
    }

    /// Seconds as a floating-point number, for arithmetic with `Date` and for printing.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// A `poll(2)` timeout that does not wake early: whole milliseconds rounded up,
    /// at most `cap`.
    package func pollTimeout(cap: Int32 = .max) -> Int32 {
        Int32(clamping: min(Int(cap), wholeMilliseconds + 1))
    }

    /// Blocks the calling thread for the duration (none when it is not positive); a
    /// signal does not cut it short. For synchronous code with no task to suspend.
    package func sleepThread() {
        let nanoseconds = max(0, wholeNanoseconds)
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
