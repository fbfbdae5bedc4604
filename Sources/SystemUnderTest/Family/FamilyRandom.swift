/// The family feature's own seeded generator (SplitMix64): codes, client ids and
/// backoff jitter all come from the seed the app is given, so a run replays. The app
/// cannot link the Chaos framework, hence this copy of its fifteen lines.
public struct FamilyRandom: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniform integer in `0..<bound` (0 when `bound` < 2), by rejection, so the
    /// draws do not depend on the standard library's sampling.
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
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
