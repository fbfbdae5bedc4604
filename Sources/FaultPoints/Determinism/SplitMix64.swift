/// The one random number generator of the project: SplitMix64, seeded.
///
/// Every random choice Chaos makes (which bytes a corrupt-file fault garbles, whether
/// a 5% trigger fires on the 37th hit, a backoff jitter) comes from a `SplitMix64`
/// derived from the case seed, so the same seed replays the same run. Give each
/// component its own stream with ``derived(_:)`` (TigerBeetle's VOPR does the same),
/// so adding a draw in one component does not shift the choices of another.
///
/// ```swift
/// var rng = SplitMix64(seed: 6745).derived("step-5/corrupt-file")
/// let offset = rng.nextInt(below: fileSize)
/// ```
///
/// The bounded helpers (``nextInt(below:)``, ``nextInt(in:)``, ``nextUnit()``) are
/// written out here rather than taken from `Int.random(in:using:)`: the standard
/// library does not promise that its sampling algorithm stays the same across Swift
/// releases, and a seed printed by one toolchain must replay on the next.
///
/// Algorithm: Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators" (OOPSLA 2014); the constants are those of `java.util.SplittableRandom`.
package struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    /// The seed this generator started from. ``derived(_:)`` derives from it, not
    /// from the current state, so a sub-stream does not depend on earlier draws.
    package let seed: UInt64
    /// The current state; advances by the golden-ratio increment on every draw.
    package private(set) var state: UInt64

    package init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// Resumes a generator of `seed` at `state` (a state saved from ``state``).
    package init(seed: UInt64, state: UInt64) {
        self.seed = seed
        self.state = state
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// An independent generator for one component, named by `label`
    /// (for example `"trigger/store/favorites/fetch"`).
    package func derived(_ label: String) -> SplitMix64 {
        SplitMix64(seed: Self.subseed(seed, label))
    }

    /// The seed of the sub-stream `label` of `seed`: a stable FNV-1a hash of the label
    /// mixed into the seed. Never Swift's `Hasher`, which is seeded per process.
    package static func subseed(_ seed: UInt64, _ label: String) -> UInt64 {
        mix(seed ^ mix(FNV1a.hash64(label) &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// SplitMix64's finaliser: a bijection on 64 bits that spreads every input bit.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A uniform integer in `0..<bound`; 0 when `bound` is not positive.
    ///
    /// Lemire's multiply-and-reject ("Fast random integer generation in an
    /// interval", 2019): unbiased, and fixed here so that seeds replay across releases.
    package mutating func nextInt(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    package mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound))
        if width == UInt64.max { return Int(truncatingIfNeeded: next()) }
        let count = width &+ 1
        var product = next().multipliedFullWidth(by: count)
        if product.low < count {
            let threshold = (0 &- count) % count
            while product.low < threshold {
                product = next().multipliedFullWidth(by: count)
            }
        }
        return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
    }

    /// A uniform double in `0..<1` with 53 random bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// `count` random bytes (none when `count` is not positive).
    package mutating func nextBytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var word: UInt64 = 0
        for index in 0..<count {
            if index % 8 == 0 { word = next() }
            bytes.append(UInt8(truncatingIfNeeded: word >> (UInt64(index % 8) * 8)))
        }
        return bytes
    }
}
