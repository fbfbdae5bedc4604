import ChaosTarget
import Foundation

/// The `expect:` list of a scenario, item by item, for ``ScenarioParser``.
struct ExpectationParser {
    let baseDirectory: URL?
    let fixturesDirectory: URL?

    func parameters(_ context: String, _ node: ScenarioNode, _ entries: [ScenarioNode.Entry]) -> ScenarioParameters {
        ScenarioParameters(context: context, location: node.location, entries: entries, baseDirectory: baseDirectory, fixturesDirectory: fixturesDirectory)
    }

    /// One item of `expect:`: a bare word (`- no-trap`) or a one-key mapping (`- fallback: in-memory`).
    func parseExpectation(_ node: ScenarioNode) throws(ScenarioError) -> ScenarioExpectation {
        let allKeywords = ExpectationKeyword.allCases.map(\.rawValue)
        switch node.content {
        case let .scalar(text, _):
            guard let keyword = ExpectationKeyword(rawValue: text) else {
                throw ScenarioError.unknown("expectation", text, among: allKeywords, at: node.location)
            }
            guard keyword.isBare else {
                throw ScenarioError("expectation '\(text)' needs a value, like '- \(text): \(Self.placeholder(keyword))'", at: node.location)
            }
            let kind: Expectation = switch keyword {
            case .noSilentLoss: .noSilentLoss
            case .privateLogs: .privateLogs
            case .liveAfterHealing: .liveAfterHealing
            case .damagedKept: .damagedKept
            case .claimsHold: .claimsHold
            default: .noTrap
            }
            return ScenarioExpectation(kind: kind, location: node.location)

        case .list:
            throw ScenarioError("an expectation is a word (- no-trap) or a one-key mapping (- fallback: in-memory), found a list", at: node.location)

        case let .map(entries):
            guard let entry = entries.first else {
                throw ScenarioError("an empty expectation", at: node.location)
            }
            guard let keyword = ExpectationKeyword(rawValue: entry.key) else {
                throw ScenarioError.unknown("expectation", entry.key, among: allKeywords, at: entry.keyLocation)
            }
            if entries.count > 1 {
                let second = entries[1]
                throw ScenarioError(
                    "one expectation per list item: put '\(second.key)' on its own line starting with '- '",
                    at: second.keyLocation
                )
            }
            let kind = try parseExpectationValue(keyword, entry.value)
            return ScenarioExpectation(kind: kind, location: node.location)
        }
    }

    static func placeholder(_ keyword: ExpectationKeyword) -> String {
        switch keyword {
        case .noTrap, .noSilentLoss, .privateLogs, .liveAfterHealing, .damagedKept, .claimsHold: ""
        case .logged, .notLogged: "{level: error, message: could not be opened}"
        case .recordsAtLeast: "12"
        case .fallback: "in-memory"
        case .recoveredWithin, .responsiveWithin: "5s"
        case .preserved: "before-fault"
        case .surfaced: "warning"
        case .state: "{probe: favorites.count, equals: 25}"
        case .integrity: "ok"
        }
    }

    private func parseExpectationValue(_ keyword: ExpectationKeyword, _ value: ScenarioNode) throws(ScenarioError) -> Expectation {
        let what = "'\(keyword.rawValue)'"
        switch keyword {
        case .recordsAtLeast:
            let text = try value.nonEmptyText(what, expected: "a number of records like 12")
            guard let count = Int(text), (1...100_000_000).contains(count) else {
                throw ScenarioError("\(what) expects a number of records from 1 to 100000000, found '\(text)'", at: value.location)
            }
            return .recordsAtLeast(count)

        case .logged, .notLogged:
            let pattern = try parseLogPattern(keyword, value)
            return keyword == .logged ? .logged(pattern) : .notLogged(pattern)

        case .noTrap, .noSilentLoss, .privateLogs, .liveAfterHealing, .damagedKept, .claimsHold:
            throw ScenarioError("'\(keyword.rawValue)' takes no value: write '- \(keyword.rawValue)'", at: value.location)

        case .fallback:
            let modes = Expectation.fallbackModes + [Expectation.afterDamage]
            let mode = try value.nonEmptyText(what, expected: "a storage mode like " + modes.joined(separator: ", "))
            // A target names its own modes (kebab-case); a near miss of a common one is a typo.
            guard modes.contains(mode) || (ScenarioParser.isKebabName(mode) && ClosestName.suggestion(for: mode, among: modes) == nil) else {
                throw ScenarioError.unknown("fallback mode", mode, among: modes, at: value.location)
            }
            return .fallback(mode)

        case .recoveredWithin, .responsiveWithin:
            let text = try value.nonEmptyText(what, expected: "a duration like 5s")
            let duration = try ScenarioDuration.parse(text, at: value.location)
            guard duration > .zero, duration <= Scenario.maximumTimeout else {
                throw ScenarioError("\(what) must be more than 0s and at most \(ScenarioDuration.format(Scenario.maximumTimeout)), found '\(text)'", at: value.location)
            }
            return keyword == .recoveredWithin ? .recoveredWithin(duration) : .responsiveWithin(duration)

        case .preserved:
            let name = try value.nonEmptyText(what, expected: "a checkpoint name or 'acknowledged'")
            return .preserved(name)

        case .surfaced:
            let levels = SurfaceLevel.allCases.map(\.rawValue)
            let text = try value.nonEmptyText(what, expected: "one of: " + levels.joined(separator: ", "))
            guard let level = SurfaceLevel(rawValue: text) else {
                throw ScenarioError.unknown("surface level", text, among: levels, at: value.location)
            }
            return .surfaced(level)

        case .state:
            return try parseState(value)

        case .integrity:
            let text = try value.nonEmptyText(what, expected: "'ok' or 'ok-if-used'")
            switch text {
            case "ok": return .integrity
            case "ok-if-used": return .integrityIfUsed
            default:
                throw ScenarioError("'integrity' expects 'ok' or 'ok-if-used' (the store passes, or the app no longer uses it), found '\(text)'",
                                    at: value.location, suggestion: ClosestName.suggestion(for: text, among: ["ok", "ok-if-used"]))
            }
        }
    }

    /// `state: {probe: P, equals: V}`.
    private func parseState(_ value: ScenarioNode) throws(ScenarioError) -> Expectation {
        let entries = try value.entries("'state'", expected: "a mapping like {probe: favorites.count, equals: 25}")
        for entry in entries where entry.key != "probe" && entry.key != "equals" {
            throw ScenarioError(
                "unknown key '\(entry.key)' in expectation 'state'; expected one of: probe, equals",
                at: entry.keyLocation,
                suggestion: ClosestName.suggestion(for: entry.key, among: ["probe", "equals"])
            )
        }
        let parameters = parameters("expectation 'state'", value, entries)
        let probe = try parameters.requiredString("probe")
        guard let expected = parameters.value("equals") else {
            throw parameters.error("expectation 'state' needs 'equals:' (the value the probe must report)")
        }
        return .state(probe: probe, equals: expected)
    }
}
