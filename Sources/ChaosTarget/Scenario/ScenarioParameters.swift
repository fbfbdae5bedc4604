import Foundation

/// A read-only view over one step's mapping, with typed, located access: what a
/// ``Fault`` reads its parameters through.
///
/// Every accessor throws a ``ScenarioError`` that points at the offending value
/// ("expected an integer, found 'abc'"), or at the step for a missing required key.
/// Unknown keys are rejected before a fault sees its parameters, against the kind's
/// ``Fault/parameterKeys``.
///
/// ```swift
/// init(parameters: ScenarioParameters) throws(ScenarioError) {
///     file = try parameters.string("file", default: "store")
///     how = try parameters.requiredOneOf("how", Method.allCases.map(\.rawValue))
/// }
/// ```
package struct ScenarioParameters: Sendable {
    /// What the mapping is, for messages: `fault 'corrupt-file'`.
    package let context: String
    /// Where the step starts.
    package let location: SourceLocation
    /// The scenario file's folder, for relative paths; nil for a scenario read from a string.
    package let baseDirectory: URL?
    /// The bundled fixtures folder, set only while loading a bundled scenario: its
    /// `fixtures/...` paths resolve there.
    package let fixturesDirectory: URL?

    package let entries: [ScenarioNode.Entry]

    package init(context: String, location: SourceLocation, entries: [ScenarioNode.Entry], baseDirectory: URL?, fixturesDirectory: URL?) {
        self.context = context
        self.location = location
        self.entries = entries
        self.baseDirectory = baseDirectory
        self.fixturesDirectory = fixturesDirectory
    }

    /// The keys written, in order.
    package var keys: [String] { entries.map(\.key) }

    package func contains(_ key: String) -> Bool { entry(key) != nil }

    /// Where `key`'s value was written; the step's location when the key is absent.
    package func location(of key: String) -> SourceLocation { entry(key)?.value.location ?? location }

    /// A located error for a check the accessors do not make, pointing at `key`'s value
    /// (or the step when `key` is nil or absent).
    package func error(_ message: String, at key: String? = nil, suggestion: String? = nil) -> ScenarioError {
        ScenarioError(message, at: key.map(location(of:)) ?? location, suggestion: suggestion)
    }

    package func entry(_ key: String) -> ScenarioNode.Entry? { entries.first { $0.key == key } }

    /// The scalar text of `key`, nil when absent; an error for a list, a mapping or an empty value.
    package func scalar(_ key: String, expected: String) throws(ScenarioError) -> String? {
        guard let entry = entry(key) else { return nil }
        guard case let .scalar(text, quoted) = entry.value.content, !(text.isEmpty && !quoted) else {
            throw ScenarioError("'\(key)' of \(context): expected \(expected), found \(entry.value.found)", at: entry.value.location)
        }
        return text
    }

    package func missing(_ key: String, _ what: String) -> ScenarioError {
        ScenarioError("\(context) needs '\(key):' (\(what))", at: location)
    }

    // MARK: Typed access

    /// A string, nil when absent. Any scalar is accepted as its text.
    package func string(_ key: String) throws(ScenarioError) -> String? {
        try scalar(key, expected: "a string")
    }

    package func string(_ key: String, default defaultValue: String) throws(ScenarioError) -> String {
        try string(key) ?? defaultValue
    }

    package func requiredString(_ key: String) throws(ScenarioError) -> String {
        guard let value = try string(key) else { throw missing(key, "a string") }
        return value
    }

    /// An integer within `range`, nil when absent.
    package func int(_ key: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int? {
        guard let text = try scalar(key, expected: "an integer") else { return nil }
        guard let value = ScenarioValue.integer(text.trimmingSpaces) else {
            throw ScenarioError("'\(key)' of \(context): expected an integer, found '\(text)'", at: location(of: key))
        }
        guard range.contains(value) else {
            throw ScenarioError("'\(key)' of \(context) must be from \(range.lowerBound) to \(range.upperBound), found \(value)", at: location(of: key))
        }
        return value
    }

    package func int(_ key: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(ScenarioError) -> Int {
        try int(key, in: range) ?? defaultValue
    }

    /// `true` or `false`, nil when absent.
    package func bool(_ key: String) throws(ScenarioError) -> Bool? {
        guard let text = try scalar(key, expected: "true or false") else { return nil }
        switch text.trimmingSpaces {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: throw ScenarioError("'\(key)' of \(context): expected true or false, found '\(text)'", at: location(of: key))
        }
    }

    /// A duration (`250ms`, `5s`), nil when absent; a sign only when `allowingSign`.
    package func duration(_ key: String, allowingSign: Bool = false) throws(ScenarioError) -> Duration? {
        guard let text = try scalar(key, expected: "a duration like 250ms or 5s") else { return nil }
        return try ScenarioDuration.parse(text, allowingSign: allowingSign, at: location(of: key))
    }

    /// A percentage (`5%`) as a fraction in `0...1`, nil when absent.
    package func percent(_ key: String) throws(ScenarioError) -> Double? {
        guard let text = try scalar(key, expected: "a percentage like 5%") else { return nil }
        return try ScenarioPercent.parse(text, at: location(of: key))
    }

    /// One of `allowed`, nil when absent; an unknown one suggests the closest.
    package func oneOf(_ key: String, _ allowed: [String]) throws(ScenarioError) -> String? {
        guard let text = try scalar(key, expected: "one of: " + allowed.joined(separator: ", ")) else { return nil }
        guard allowed.contains(text) else {
            throw ScenarioError.unknown("'\(key)' value", text, among: allowed, at: location(of: key))
        }
        return text
    }

    package func requiredOneOf(_ key: String, _ allowed: [String]) throws(ScenarioError) -> String {
        guard let value = try oneOf(key, allowed) else {
            throw missing(key, "one of: " + allowed.joined(separator: ", "))
        }
        return value
    }

    /// Any value, nil when absent.
    package func value(_ key: String) -> ScenarioValue? { entry(key)?.value.value }
}
