/// Which armings can reach a point, in 64 bits, checked without a lock.
///
/// A point's reach has one bit for its full name and one for each prefix of it that
/// ends in `/` (what a wildcard names: `store/favorites/*` → `store/favorites/`). An
/// arming sets the bit of its name, or of its prefix; a wildcard not ending in `/*`,
/// and counting every hit, set them all. A hit whose reach shares no bit with what is
/// armed cannot match: it goes on without taking the registry's lock. A shared bit may
/// be a coincidence of hashes; the registry then decides under its lock, as before.
enum FaultReach {
    static let everything: UInt64 = .max

    static func bit(_ text: some StringProtocol) -> UInt64 {
        1 << (FNV1a.hash64(text.utf8) % 64)
    }

    /// The bits of `name` and of each of its `/`-ended prefixes.
    static func of(_ name: String) -> UInt64 {
        var reach = bit(name)
        var index = name.startIndex
        while let slash = name[index...].firstIndex(of: "/") {
            let next = name.index(after: slash)
            reach |= bit(name[..<next])
            index = next
        }
        return reach
    }

    /// The bit an arming of `pattern` sets: its name, its `/`-ended prefix, or all.
    static func ofPattern(_ pattern: String) -> UInt64 {
        guard pattern.hasSuffix("*") else { return bit(pattern) }
        let prefix = pattern.dropLast()
        return prefix.isEmpty || prefix.hasSuffix("/") ? (prefix.isEmpty ? everything : bit(prefix)) : everything
    }
}
