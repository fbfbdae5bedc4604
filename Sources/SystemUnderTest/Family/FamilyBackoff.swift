/// When to retry a sync that broke mid-way: exponential, capped, with a seeded jitter,
/// for a bounded number of attempts.
///
/// The wait before retry n (1-based) is `e/2 + a draw in 0...e/2`, where
/// `e = min(cap, base * 2^(n-1))` ("equal jitter": never less than half the
/// exponential step, so retries do spread out, and never in lock step with another
/// device). Draws come from the app's seed and the family's id, so a run replays.
/// Waits are slept on `ContinuousClock`, never measured on the wall clock.
public struct FamilyBackoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    public var seed: UInt64

    public init(base: Duration = .milliseconds(100), cap: Duration = .seconds(1), maxAttempts: Int = 4, seed: UInt64) {
        self.base = base
        self.cap = cap
        self.maxAttempts = max(1, maxAttempts)
        self.seed = seed
    }

    /// The waits before retries 1 ... maxAttempts-1 of the sync of `familyID`.
    public func delays(familyID: Int64) -> [Duration] {
        var rng = FamilyRandom(seed: FamilyRandom.subseed(seed, "family/backoff/\(familyID)"))
        let capNs = cap.wholeNanoseconds
        var stepNs = base.wholeNanoseconds
        var delays: [Duration] = []
        for _ in 1..<maxAttempts {
            let exponential = min(capNs, stepNs)
            let half = exponential / 2
            delays.append(.nanoseconds(half + Int64(rng.below(Int(half) + 1))))
            let (doubled, overflow) = stepNs.multipliedReportingOverflow(by: 2)
            stepNs = overflow ? capNs : min(capNs, doubled)
        }
        return delays
    }
}
