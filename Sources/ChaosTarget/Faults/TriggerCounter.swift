/// Where one armed fault stands in its ``Trigger``: the operations it has seen, the
/// times it fired, its seeded generator. A value, so that it crosses the worker
/// protocol: the worker reports it after each request, and the controller arms the
/// next launch of the app with it. So `after: 3` and `times: 2` count over the whole
/// case, across relaunches, by design rather than by recounting a report.
///
/// Hits are 1-based operation counts. A hit is eligible when it is past `after` and
/// fewer than `times` firings have happened; an eligible hit fires, or, with a
/// probability, draws once from the seeded generator. The same trigger and seed give
/// the same firing sequence.
package struct TriggerCounter: Sendable, Codable, Equatable {
    /// Operations seen so far.
    package private(set) var hits: Int
    /// Times fired so far.
    package private(set) var fired: Int
    /// The generator's state (its seed is the armed fault's).
    package private(set) var randomState: UInt64

    /// A counter that has seen nothing, drawing from `seed`.
    package init(seed: UInt64) {
        hits = 0
        fired = 0
        randomState = seed
    }

    /// A counter that has seen `hits` operations and fired `fired` times.
    package init(hits: Int, fired: Int, randomState: UInt64) {
        self.hits = hits
        self.fired = fired
        self.randomState = randomState
    }

    /// At least as far as a firing the seam reported as it happened: what a worker
    /// that died before its next reply leaves the controller to go on from.
    package func atLeast(hits: Int, fired: Int) -> TriggerCounter {
        TriggerCounter(hits: max(self.hits, hits), fired: max(self.fired, fired), randomState: randomState)
    }

    /// Counts one operation and says whether the fault fires there.
    package mutating func hit(_ trigger: Trigger, seed: UInt64) -> Bool {
        hits += 1
        return decide(hit: hits, trigger, seed: seed)
    }

    /// Whether operation number `hit` fires, for a seam that numbers operations itself
    /// (the fault proxy numbers connections).
    package mutating func decide(hit: Int, _ trigger: Trigger, seed: UInt64) -> Bool {
        guard hit > trigger.after else { return false }
        if let times = trigger.times, fired >= times { return false }
        if let probability = trigger.probability {
            var rng = SplitMix64(seed: seed, state: randomState)
            defer { randomState = rng.state }
            if rng.nextUnit() >= probability { return false }
        }
        fired += 1
        return true
    }

    /// True once a `times`-limited trigger has fired its last time.
    package func isExhausted(_ trigger: Trigger) -> Bool {
        guard let times = trigger.times else { return false }
        return fired >= times
    }
}
