/// A target option a scenario's `options:` or the command line's `--option KEY=VALUE`
/// may set, and the values it takes.
///
/// A target declares every option it reads; Chaos refuses, before anything runs, an
/// option it does not declare, an empty one, or a value it does not take, rather than
/// run a whole gate on a setting the target silently ignored.
///
/// ```swift
/// static let options: [TargetOption] = [
///     TargetOption("synchronous", .choice(["full", "normal", "off"]), summary: "SQLite's durability"),
/// ]
/// ```
public struct TargetOption: Sendable, Codable, Equatable {
    public let name: String
    /// The values it takes (a whole number in a range, one of some words, any text…).
    public let kind: ActionParameter.Kind
    /// What it changes, for a reader of `chaos list --target-exec` and of errors.
    public let summary: String

    public init(_ name: String, _ kind: ActionParameter.Kind, summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }

    /// Why `text` is not a value of this option; nil when it is.
    public func problem(with text: String) -> String? {
        guard !text.isEmpty else { return "needs a value" }
        let value: ScenarioValue = if let number = Int(text) { .int(number) } else if text == "true" || text == "false" {
            .bool(text == "true")
        } else { .string(text) }
        switch (kind, value) {
        // Any text takes a number or a flag's word as text.
        case (.text, _): return nil
        default: return ActionParameter(name, kind).problem(with: value)
        }
    }
}
