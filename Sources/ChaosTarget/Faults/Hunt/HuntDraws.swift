import FaultPoints

/// The random draws of one hunt schedule: the one SplitMix64, never the standard
/// library's sampling, so that schedule *i* of seed *S* is the same on every machine and
/// toolchain. The generator and every kind it draws share one stream, in a fixed order.
package struct HuntDraws: Sendable {
    package var random: SplitMix64

    package init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A number in `0..<count` (0 when `count` is not positive).
    package mutating func below(_ count: Int) -> Int {
        count > 0 ? Int(random.next() % UInt64(count)) : 0
    }

    /// True with this chance, in percent.
    package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items` (which must not be empty).
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// One of `items`, each as likely as its weight.
    package mutating func pick<T>(weighted items: [(T, Int)]) -> T {
        let total = items.reduce(0) { $0 + max(0, $1.1) }
        var roll = below(total)
        for (item, weight) in items where weight > 0 {
            if roll < weight { return item }
            roll -= weight
        }
        return items[0].0
    }

    /// When a repeating fault fires: always, or after a few hits, a few times.
    package mutating func trigger() -> [HuntKey] {
        var keys: [HuntKey] = []
        if chance(35) { keys.append(HuntKey("after", .int(1 + below(3)))) }
        if chance(60) { keys.append(HuntKey("times", .int(1 + below(3)))) }
        return keys
    }
}
