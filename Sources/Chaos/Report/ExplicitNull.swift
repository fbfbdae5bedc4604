/// An optional report field that is always written: `null` when it has no value.
///
/// Synthesized `Codable` omits nil optionals; the report schema (docs/schema/chaos-report.schema.json)
/// promises every key is there, so that a reader can tell "not measured" from "written
/// by an older Chaos". Reading, a missing key is nil, so older reports still load.
///
/// ```swift
/// @ExplicitNull package var recoveryMs: Int?   // "recoveryMs" : null
/// ```
@propertyWrapper
package struct ExplicitNull<Value: Codable>: Codable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}
extension ExplicitNull: Equatable where Value: Equatable {}

extension KeyedDecodingContainer {
    /// A missing key reads as nil (the synthesized decoder asks for the wrapper itself).
    package func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        ExplicitNull(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
