/// An argument an action takes (`with: { count: 25 }`), and the values it allows.
///
/// An action that declares its parameters has every scenario checked against them before
/// anything runs: an unknown argument, a negative count or a word where a number goes is
/// an error at its line, not a failed run.
///
/// ```swift
/// TargetAction("notes.add", parameters: [.int("count", in: 1...10_000)]) { target, call in … }
/// ```
public struct ActionParameter: Sendable, Codable, Equatable {
    /// What values the argument takes.
    public enum Kind: Sendable, Codable, Equatable {
        /// A whole number in the range.
        case int(ClosedRange<Int>)
        /// Any text.
        case text
        /// `true` or `false`.
        case flag
        /// One of these words.
        case choice([String])
        /// Text or a number (a name or an id).
        case textOrNumber
    }

    public let name: String
    public let kind: Kind
    /// Whether the action needs it (`.text("set").required`): a `do:` without it is an
    /// error at its line, before anything runs. Nil (absent on the wire): optional.
    private let needed: Bool?

    public init(_ name: String, _ kind: Kind) {
        self.init(name, kind, needed: nil)
    }

    private init(_ name: String, _ kind: Kind, needed: Bool?) {
        self.name = name
        self.kind = kind
        self.needed = needed
    }

    /// True when a `do:` must give it.
    public var isRequired: Bool { needed ?? false }

    /// The same argument, which every `do:` of the action must give.
    public var required: ActionParameter { ActionParameter(name, kind, needed: true) }

    private enum CodingKeys: String, CodingKey {
        case name, kind
        case needed = "required"
    }

    public static func int(_ name: String, in range: ClosedRange<Int>) -> ActionParameter { ActionParameter(name, .int(range)) }
    public static func text(_ name: String) -> ActionParameter { ActionParameter(name, .text) }
    public static func flag(_ name: String) -> ActionParameter { ActionParameter(name, .flag) }
    public static func choice(_ name: String, _ words: [String]) -> ActionParameter { ActionParameter(name, .choice(words)) }
    public static func textOrNumber(_ name: String) -> ActionParameter { ActionParameter(name, .textOrNumber) }

    /// Why `value` does not fit, nil when it does.
    public func problem(with value: ScenarioValue) -> String? {
        switch (kind, value) {
        case let (.int(range), .int(number)):
            return range.contains(number) ? nil : "must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(number)"
        case (.int(let range), _):
            return "must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(value)"
        case (.text, .string), (.textOrNumber, .string), (.textOrNumber, .int), (.flag, .bool):
            return nil
        case (.text, _): return "must be text, found \(value)"
        case (.flag, _): return "must be true or false, found \(value)"
        case (.textOrNumber, _): return "must be a name or a number, found \(value)"
        case let (.choice(words), .string(word)):
            return words.contains(word) ? nil : "must be one of \(words.joined(separator: ", ")), found '\(word)'"
        case let (.choice(words), _):
            return "must be one of \(words.joined(separator: ", ")), found \(value)"
        }
    }
}
