/// FNV-1a, 64-bit: a stable hash of a string's UTF-8 bytes.
///
/// Used to turn labels into sub-seeds (``SplitMix64/subseed(_:_:)``). Stable across
/// processes, machines and Swift releases, unlike `Hasher`, which is randomly seeded
/// per process and would make every run different.
///
/// Reference: <http://www.isthe.com/chongo/tech/comp/fnv/>
package enum FNV1a {
    package static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01B3

    package static func hash64(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    package static func hash64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }
}
