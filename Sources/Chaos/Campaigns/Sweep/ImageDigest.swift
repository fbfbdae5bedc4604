/// What a crash image holds, as 128 bits: two trials whose images digest the same are
/// one launch of the app (``CrashImages``). Two 64-bit lanes take the bytes eight at a
/// time (xxHash64's round, each lane its own), and every piece added closes with its
/// length, so files and names cannot run into each other. Not a cryptographic hash: the
/// images are the app's own writes, not an adversary's, and a sweep compares hundreds.
struct ImageDigest: Hashable {
    private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = lane &+ word &* prime2
        return ((mixed << 31) | (mixed >> 33)) &* prime1
    }

    /// Adds `bytes`, then their length.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 16 <= bytes.count {
            a = Self.round(a, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            b = Self.round(b, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            offset += 16
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        a = Self.round(a, tail)
        b = Self.round(b, UInt64(bytes.count))
    }

    /// Adds a string's UTF-8 bytes, then their length.
    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }
}
