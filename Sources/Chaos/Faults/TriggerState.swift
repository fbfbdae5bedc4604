import Synchronization

/// The decider built from a ``Trigger`` and a seed: asked once per operation
/// ("hit") whether the fault fires there. Thread-safe, because fault points and VFS
/// callbacks are hit from any thread.
///
/// Hits are 1-based operation counts. A hit is eligible when it is past `after` and
/// fewer than `times` firings have happened; an eligible hit fires, or, with a
/// probability, draws once from the seeded generator. The same trigger and seed give
/// the same firing sequence.
///
/// ```swift
/// let state = TriggerState(trigger: step.trigger, seed: SplitMix64.subseed(caseSeed, "step-4"))
/// registry.arm(point) { hit in state.shouldFire(hit: hit) ? .fail(message: ...) : nil }
/// ```
public final class TriggerState: Sendable {
    public let trigger: Trigger

    private struct State {
        var rng: SplitMix64
        var fired = 0
    }

    private let state: Mutex<State>

    public init(trigger: Trigger, seed: UInt64) {
        self.trigger = trigger
        self.state = Mutex(State(rng: SplitMix64(seed: seed)))
    }

    /// Whether the operation numbered `hit` (1-based) fires.
    public func shouldFire(hit: Int) -> Bool {
        state.withLock { state in
            guard hit > trigger.after else { return false }
            if let times = trigger.times, state.fired >= times { return false }
            if let probability = trigger.probability, state.rng.nextUnit() >= probability { return false }
            state.fired += 1
            return true
        }
    }

    /// How many times it has fired.
    public var firedCount: Int { state.withLock { $0.fired } }

    /// True once a `times`-limited trigger has fired its last time.
    public var isExhausted: Bool {
        guard let times = trigger.times else { return false }
        return firedCount >= times
    }
}
