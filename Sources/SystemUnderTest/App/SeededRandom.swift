/// The app's one seeded random source: SplitMix64, as in the Chaos framework, which
/// this module may not import. Quiz order, family codes, client ids and backoff
/// jitter all come from the seed the app is given, so a reported failure replays.
///
/// The samplers are written out rather than taken from the standard library, whose
/// sampling may change between Swift releases: a seed must replay on the next
/// toolchain too.
///
/// Algorithm: Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators" (OOPSLA 2014); Lemire, "Fast random integer generation in an
/// interval" (2019).
public struct SeededRandom: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform integer in `0..<bound`; 0 when `bound` is below 2 (Lemire's method;
    /// the quiz's draws).
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

    /// A uniform integer in `0..<bound` (0 when `bound` < 2) by modulo rejection (the
    /// family feature's draws, whose recorded sequences tests pin).
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
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

    /// An independent seed for one use of the app seed (`"family/codes"`), by an FNV-1a
    /// hash of the label: never Swift's per-process `Hasher`.
    public static func subseed(_ seed: UInt64, _ label: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return mix(seed ^ mix(hash &+ 0x9E37_79B9_7F4A_7C15))
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The quiz's generator (the same one; the name reads well where it is used).
public typealias QuizRandom = SeededRandom
/// The family feature's generator (the same one).
public typealias FamilyRandom = SeededRandom
