/// The quiz's own seeded random source: SplitMix64, as in the Chaos framework, which
/// this module may not import. A quiz built from the same words and the same seed
/// asks the same questions with the same choices in the same order, so a failure a
/// user reports can be replayed.
///
/// ``shuffle(_:)`` and ``nextInt(below:)`` are written out rather than taken from the
/// standard library's `shuffled(using:)`, whose sampling may change between Swift
/// releases: a seed must replay on the next toolchain too.
///
/// Algorithm: Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators" (OOPSLA 2014); Lemire, "Fast random integer generation in an
/// interval" (2019).
public struct QuizRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound`; 0 when `bound` is below 2.
    public mutating func nextInt(below bound: Int) -> Int {
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

    /// The elements in a seeded order (Fisher–Yates).
    public mutating func shuffle<Element>(_ elements: [Element]) -> [Element] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, nextInt(below: index + 1))
            index -= 1
        }
        return result
    }
}
