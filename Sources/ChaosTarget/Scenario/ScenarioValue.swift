/// A value written in a scenario where any YAML value may go: the arguments of an
/// action (`with: {count: 25}`), the expected value of a probe.
///
/// Codable as a plain JSON value (`25`, `"x"`, `[1, 2]`, `{"count": 25}`, `null`), not
/// tagged: it travels to the worker as JSON. Plain JSON cannot tell `2.0` from `2`, so
/// a whole-number `.double` comes back from JSON as `.int`.
///
/// From YAML, a quoted scalar is always a string; a plain one is `null`/`~`/empty →
/// `.null`, `true`/`false` → `.bool`, an integer → `.int` (`.double` beyond Int's range),
/// a decimal → `.double`, and
/// anything else a string. YAML 1.1's `yes`/`no`/`on`/`off` stay strings (the
/// "Norway problem").
public indirect enum ScenarioValue: Sendable, Equatable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([ScenarioValue])
    case map([String: ScenarioValue])
    case null
}

extension ScenarioValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ScenarioValue].self) {
            self = .list(value)
        } else if let value = try? container.decode([String: ScenarioValue].self) {
            self = .map(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .int(value): try container.encode(value)
        case let .double(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .list(value): try container.encode(value)
        case let .map(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension ScenarioValue: CustomStringConvertible {
    /// YAML flow style, keys sorted: `25`, `hello`, `[1, 2]`, `{count: 25, name: "a b"}`.
    public var description: String {
        switch self {
        case let .string(value):
            let plain = !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || "-._/".contains($0) }
                && ScenarioValue(plainScalar: value) == .string(value)
            return plain ? value : "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case let .int(value): return String(value)
        case let .double(value): return String(value)
        case let .bool(value): return value ? "true" : "false"
        case let .list(values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case let .map(entries):
            return "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.description)" }.joined(separator: ", ") + "}"
        case .null: return "null"
        }
    }
}

extension ScenarioValue {
    /// The value of a plain (unquoted) YAML scalar, by the rules in the type's documentation.
    package init(plainScalar text: String) {
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        default:
            if let value = ScenarioValue.integer(text) {
                self = .int(value)
            } else if ScenarioValue.looksNumeric(text), let value = Double(text), value.isFinite {
                self = .double(value)
            } else {
                self = .string(text)
            }
        }
    }

    /// `[-+]?[0-9]+` within Int's range, else nil.
    package static func integer(_ text: String) -> Int? {
        var digits = Substring(text)
        if let first = digits.first, first == "-" || first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(text)
    }

    /// `[-+]?[0-9]+` (an integer too large for Int), `[-+]?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?`
    /// or `[-+]?[0-9]+[eE][-+]?[0-9]+`: a number, not `nan`, `inf` or hex.
    package static func looksNumeric(_ text: String) -> Bool {
        guard text.count <= 64 else { return false }
        var rest = Substring(text)
        if let first = rest.first, first == "-" || first == "+" { rest = rest.dropFirst() }
        let mantissaEnd = rest.firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
        let mantissa = rest[rest.startIndex..<mantissaEnd]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              parts.contains(where: { !$0.isEmpty })
        else { return false }
        if mantissaEnd == rest.endIndex { return parts.count == 1 || !(parts.last?.isEmpty ?? true) }
        var exponent = rest[rest.index(after: mantissaEnd)...]
        if let first = exponent.first, first == "-" || first == "+" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy(\.isASCIIDigit)
    }
}
