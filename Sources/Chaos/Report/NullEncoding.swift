import ChaosTarget

extension KeyedEncodingContainer {
    /// Encodes `value`, or an explicit `null` when it is nil.
    ///
    /// Synthesized `Codable` omits nil optionals; the report schema
    /// (DESIGN.md section 4) promises the key is always there, so that a
    /// reader can tell "not measured" from "written by an older Chaos".
    mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else {
            try encodeNil(forKey: key)
        }
    }
}
