import Synchronization

/// A ``TriggerCounter`` behind a lock, for seams whose operations arrive on any
/// thread (fault points, the fault proxy's event loop).
///
/// ```swift
/// let state = TriggerState(trigger: step.trigger, seed: SplitMix64.subseed(caseSeed, "step-4"))
/// registry.arm(point) { _ in state.hit() ? .fail(message: ...) : nil }
/// ```
package final class TriggerState: Sendable {
    package let trigger: Trigger
    package let seed: UInt64
    private let counter: Mutex<TriggerCounter>

    package init(trigger: Trigger, seed: UInt64, counter: TriggerCounter? = nil) {
        self.trigger = trigger
        self.seed = seed
        self.counter = Mutex(counter ?? TriggerCounter(seed: seed))
    }

    /// Counts one operation and says whether the fault fires there.
    package func hit() -> Bool {
        counter.withLock { $0.hit(trigger, seed: seed) }
    }

    /// Whether the operation numbered `hit` (1-based, numbered by the seam) fires.
    package func shouldFire(hit: Int) -> Bool {
        counter.withLock { $0.decide(hit: hit, trigger, seed: seed) }
    }

    /// Where the trigger stands now.
    package var snapshot: TriggerCounter { counter.withLock { $0 } }

    /// How many times it has fired.
    package var firedCount: Int { snapshot.fired }

    /// True once a `times`-limited trigger has fired its last time.
    package var isExhausted: Bool { snapshot.isExhausted(trigger) }
}
