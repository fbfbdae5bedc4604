import Foundation
import ChaosTarget

/// The case's time: when it started, when it must end (`timeout:`), and how far in it is.
struct CaseClock {
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    /// The pool's place of the case (nil outside a pool): given up over a long wait.
    let slot: TrialSlot?

    init(timeout: Duration, slot: TrialSlot? = nil) {
        start = clock.now
        deadline = start + timeout
        self.slot = slot
    }

    var now: ContinuousClock.Instant { clock.now }

    /// Milliseconds since the case started.
    var elapsedMs: Int { (now - start).wholeMilliseconds }

    /// Milliseconds from the case's start to `instant` (0 before it).
    func ms(at instant: ContinuousClock.Instant) -> Int { (max(instant, start) - start).wholeMilliseconds }

    var isPastDeadline: Bool { now >= deadline }

    /// `wait:` — lets `duration` pass, no further than the deadline; Ctrl-C ends it.
    func wait(_ duration: Duration) {
        let until = min(now + duration, deadline)
        // A long wait lets the pool of a sweep or a hunt start another trial meanwhile.
        if until - now >= TrialSlot.waitingAfter { slot?.waiting() }
        defer { slot?.working() }
        while now < until, !RunInterruption.requested {
            Thread.sleep(forTimeInterval: min(0.05, Double((until - now).wholeMilliseconds) / 1000))
        }
    }
}
