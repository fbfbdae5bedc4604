import Foundation
import ChaosTarget

/// Walks a composed YAML document into a ``Scenario``, key by key, in document order,
/// so the first error reported is the first one in the file. Yams's Codable decoding
/// is not used: it silently ignores unknown keys and loses positions.
struct ScenarioParser {
    let file: String
    let text: String
    let baseDirectory: URL?
    /// Set for a catalog's scenarios only: `fixtures/...` paths resolve there.
    let fixturesDirectory: URL?

    /// Parses and validates, adding the caret snippet to whatever error comes out.
    func parse() throws(ScenarioError) -> Scenario {
        do throws(ScenarioError) {
            let scenario = try parseDocument()
            try ScenarioValidation.validate(scenario)
            return scenario
        } catch {
            var error = error
            if error.snippet == nil, error.file == file {
                error.snippet = ScenarioError.snippet(in: text, line: error.line, column: error.column)
            }
            throw error
        }
    }

    private func parseDocument() throws(ScenarioError) -> Scenario {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard let root = try ScenarioNode.compose(text, file: file) else {
            throw ScenarioError("the scenario is empty: it needs at least name, summary, system and steps", at: start)
        }
        guard case let .map(entries) = root.content else {
            throw ScenarioError(
                "a scenario is a mapping of keys (name:, summary:, system:, steps:, ...), found \(root.found) at the top level",
                at: root.location
            )
        }
        var draft = Draft()
        for entry in entries {
            guard let key = ScenarioKey(rawValue: entry.key) else {
                throw ScenarioError.unknown("key", entry.key, among: ScenarioKey.allCases.map(\.rawValue), at: entry.keyLocation)
            }
            try parse(key, entry.value, into: &draft)
        }
        func missing(_ key: String, _ what: String) -> ScenarioError {
            ScenarioError("the scenario needs '\(key):' (\(what))", at: root.location)
        }
        guard let name = draft.name else { throw missing("name", "kebab-case, like corrupted-db") }
        guard let summary = draft.summary else { throw missing("summary", "one line that says what happens to the app") }
        guard let system = draft.system else { throw missing("system", "the feature it exercises, like favorites") }
        guard let steps = draft.steps else { throw missing("steps", "a list of steps") }
        var scenario = Scenario(
            name: name, summary: summary, system: system, seed: draft.seed, timeout: draft.timeout, options: draft.options,
            steps: steps, expectations: draft.expectations, location: root.location, sourceText: text
        )
        scenario.systemLocation = draft.systemLocation
        scenario.optionLocations = draft.optionLocations
        return scenario
    }

    /// The top-level keys as read so far.
    private struct Draft {
        var name: String?
        var summary: String?
        var system: String?
        var systemLocation: SourceLocation?
        var seed = Scenario.defaultSeed
        var timeout = Scenario.defaultTimeout
        var options: [String: String] = [:]
        var optionLocations: [String: SourceLocation] = [:]
        var steps: [ScenarioStep]?
        var expectations: [ScenarioExpectation] = []
    }

    private func parse(_ key: ScenarioKey, _ node: ScenarioNode, into draft: inout Draft) throws(ScenarioError) {
        switch key {
        case .name:
            draft.name = try parseName(node)
        case .summary:
            draft.summary = try node.nonEmptyText("'summary'", expected: "one line that says what happens to the app")
        case .system:
            draft.system = try parseSystem(node)
            draft.systemLocation = node.location
        case .seed:
            let text = try node.nonEmptyText("'seed'", expected: "an integer from 0 to \(UInt64.max)")
            guard text.allSatisfy(\.isASCIIDigit), let value = UInt64(text) else {
                throw ScenarioError("'seed': expected an integer from 0 to \(UInt64.max), found '\(text)'", at: node.location)
            }
            draft.seed = value
        case .timeout:
            let text = try node.nonEmptyText("'timeout'", expected: "a duration like 30s")
            let value = try ScenarioDuration.parse(text, at: node.location)
            guard value > .zero, value <= Scenario.maximumTimeout else {
                throw ScenarioError("'timeout' must be more than 0s and at most \(ScenarioDuration.format(Scenario.maximumTimeout)), found '\(text)'", at: node.location)
            }
            draft.timeout = value
        case .options:
            (draft.options, draft.optionLocations) = try parseOptions(node)
        case .steps:
            let items = try node.items("'steps'", expected: "a list of steps (- launch, - do: ACTION, ...)")
            guard !items.isEmpty else {
                throw ScenarioError("'steps' is empty: a scenario needs at least one step", at: node.location)
            }
            var parsed: [ScenarioStep] = []
            for item in items { parsed.append(try parseStep(item)) }
            draft.steps = parsed
        case .expect:
            // `expect:` with nothing under it means no expectations beyond no-trap.
            if case let .scalar(text, quoted) = node.content, text.isEmpty, !quoted { return }
            let items = try node.items("'expect'", expected: "a list of expectations (- no-trap, - fallback: MODE, ...)")
            let expectations = ExpectationParser(baseDirectory: baseDirectory, fixturesDirectory: fixturesDirectory)
            for item in items { draft.expectations.append(try expectations.parseExpectation(item)) }
        }
    }

    /// A kebab-case name; which systems a target has is its own declaration's business
    /// (``ScenarioTargetCheck``).
    private func parseSystem(_ node: ScenarioNode) throws(ScenarioError) -> String {
        let text = try node.nonEmptyText("'system'", expected: "the feature it exercises, like favorites")
        guard Self.isKebabName(text) else {
            throw ScenarioError("a system is a kebab-case name like favorites or notes ([a-z0-9-]+), found '\(text)'", at: node.location)
        }
        return text
    }

    private func parseName(_ node: ScenarioNode) throws(ScenarioError) -> String {
        let text = try node.nonEmptyText("'name'", expected: "a kebab-case name like corrupted-db")
        guard Self.isKebabName(text) else {
            throw ScenarioError("'name' must be kebab-case ([a-z0-9-]+, not starting with '-'), found '\(text)'", at: node.location)
        }
        return text
    }

    /// `[a-z0-9-]+`, at most 100 characters, not starting with `-` (it would read as an option on a command line).
    static func isKebabName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 100 && !text.hasPrefix("-")
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }

    private func parseOptions(_ node: ScenarioNode) throws(ScenarioError) -> ([String: String], [String: SourceLocation]) {
        let entries = try node.entries("'options'", expected: "a mapping of target options, like synchronous: full")
        var options: [String: String] = [:]
        var locations: [String: SourceLocation] = [:]
        for entry in entries {
            guard case let .scalar(text, _) = entry.value.content, !text.isEmpty else {
                throw ScenarioError("option '\(entry.key)': expected a value, found \(entry.value.found)", at: entry.value.location)
            }
            options[entry.key] = text
            locations[entry.key] = entry.keyLocation
        }
        return (options, locations)
    }

    func parameters(_ context: String, _ node: ScenarioNode, _ entries: [ScenarioNode.Entry]) -> ScenarioParameters {
        ScenarioParameters(context: context, location: node.location, entries: entries, baseDirectory: baseDirectory, fixturesDirectory: fixturesDirectory)
    }
}

extension ScenarioNode {
    /// The scalar's text, or an error saying what `what` expected.
    func text(_ what: String, expected: String) throws(ScenarioError) -> String {
        guard case let .scalar(text, _) = content else {
            throw ScenarioError("\(what): expected \(expected), found \(found)", at: location)
        }
        return text
    }

    /// The scalar's text, which must not be empty.
    func nonEmptyText(_ what: String, expected: String) throws(ScenarioError) -> String {
        let value = try text(what, expected: expected)
        guard !value.trimmingSpaces.isEmpty else {
            throw ScenarioError("\(what): expected \(expected), found nothing", at: location)
        }
        return value
    }

    func items(_ what: String, expected: String) throws(ScenarioError) -> [ScenarioNode] {
        guard case let .list(items) = content else {
            throw ScenarioError("\(what): expected \(expected), found \(found)", at: location)
        }
        return items
    }

    func entries(_ what: String, expected: String) throws(ScenarioError) -> [Entry] {
        guard case let .map(entries) = content else {
            throw ScenarioError("\(what): expected \(expected), found \(found)", at: location)
        }
        return entries
    }
}
