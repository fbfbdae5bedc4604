/// The keys of records a case wrote (attempted, acknowledged), kept compactly: a case may
/// write a million records, and their keys are the largest thing its controller holds.
///
/// Most apps number their records (`favorite:123456`): a key that is a prefix ending in
/// `:` and a number written the one way `String(n)` writes it is kept as that number in
/// a set of its prefix's (8 bytes, where a key is 16 in a `Set<String>`: half the
/// memory); any other key (`note:6F9619FF-…`, `a`) as itself. Which way a key is kept
/// never shows: it reads back as the same string.
package struct RecordKeys: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    private var numbered: [String: Set<Int>] = [:]
    private var named: Set<String> = []

    package init() {}

    package init(arrayLiteral keys: String...) {
        self.init(keys)
    }

    package init(_ keys: some Sequence<String>) {
        for key in keys { insert(key) }
    }

    package var count: Int { numbered.values.reduce(named.count) { $0 + $1.count } }
    package var isEmpty: Bool { named.isEmpty && numbered.values.allSatisfy(\.isEmpty) }

    package func contains(_ key: String) -> Bool {
        guard let (prefix, number) = Self.split(key) else { return named.contains(key) }
        return numbered[prefix]?.contains(number) ?? false
    }

    @discardableResult
    package mutating func insert(_ key: String) -> Bool {
        guard let (prefix, number) = Self.split(key) else { return named.insert(key).inserted }
        return numbered[prefix, default: []].insert(number).inserted
    }

    @discardableResult
    package mutating func remove(_ key: String) -> Bool {
        guard let (prefix, number) = Self.split(key) else { return named.remove(key) != nil }
        return numbered[prefix]?.remove(number) != nil
    }

    /// Into an empty set, `other`'s storage is shared, not copied (a million keys told
    /// at a warning launch are the acknowledged ones until a write follows).
    package mutating func formUnion(_ other: RecordKeys) {
        guard !isEmpty else {
            self = other
            return
        }
        named.formUnion(other.named)
        for (prefix, numbers) in other.numbered { numbered[prefix, default: []].formUnion(numbers) }
    }

    package func makeIterator() -> AnyIterator<String> {
        var named = self.named.makeIterator()
        var prefixes = numbered.makeIterator()
        var current: (prefix: String, numbers: Set<Int>.Iterator)?
        return AnyIterator {
            if let key = named.next() { return key }
            while true {
                if let number = current?.numbers.next(), let prefix = current?.prefix { return prefix + String(number) }
                guard let (prefix, numbers) = prefixes.next() else { return nil }
                current = (prefix, numbers.makeIterator())
            }
        }
    }

    package static func == (lhs: RecordKeys, rhs: RecordKeys) -> Bool {
        lhs.named == rhs.named && lhs.numbered.filter { !$0.value.isEmpty } == rhs.numbered.filter { !$0.value.isEmpty }
    }

    /// `("favorite:", 12)` for `favorite:12`; nil for a key that would not read back the
    /// same from its number (`a:012`, `a:-1`, `a:`, no `:`, more digits than an Int holds).
    static func split(_ key: String) -> (String, Int)? {
        let utf8 = key.utf8
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        let digits = utf8[utf8.index(after: colon)...]
        guard let first = digits.first, (1...18).contains(digits.count),
              first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var number = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return (String(key[...colon]), number)
    }
}
