/// A record's value as Chaos keeps it: 64 bits of FNV-1a over the row's UTF-8, written
/// as 16 hex digits. An action that acknowledges a record with its value
/// (``ActionCall/acknowledge(_:value:)``) sends this, never the value, and the controller
/// digests each row of the final snapshot the same way: a record whose digest differs
/// from the one acknowledged was **corrupted** — present, but not what the user saved.
///
/// FNV-1a, not Swift's `Hasher`: the same row gives the same digest in every process
/// (`Hasher` is seeded per process). It detects change, it does not resist forgery.
package enum RecordDigest {
    package static func of(_ row: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in row.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The digest as the wire writes it: 16 lowercase hex digits.
    package static func text(_ digest: UInt64) -> String {
        let hex = String(digest, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A digest read back from the wire; nil for anything but 1 to 16 hex digits.
    package static func parse(_ text: String) -> UInt64? {
        guard (1...16).contains(text.utf8.count) else { return nil }
        return UInt64(text, radix: 16)
    }
}
