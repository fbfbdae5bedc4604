import Foundation
import ChaosTarget

/// Which log records a `logged:` or `not-logged:` expectation means: at least a level,
/// a message containing a text (case-insensitive), a call site beginning with a text
/// (`AppStore.swift`, `AppStore.swift:120`). What is not given matches any record.
package struct LogPattern: Sendable, Equatable {
    /// swift-log's level name; records of this level or more severe match.
    package var level: String?
    package var message: String?
    package var site: String?

    package init(level: String? = nil, message: String? = nil, site: String? = nil) {
        self.level = level
        self.message = message
        self.site = site
    }

    package func matches(_ entry: LogEntry) -> Bool {
        if let level, let least = AppLogRecord.levels.firstIndex(of: level), entry.severity < least { return false }
        if let message, entry.message.range(of: message, options: .caseInsensitive) == nil { return false }
        if let site, !entry.site.hasPrefix(site) { return false }
        return true
    }

    /// `error "could not be opened" at AppStore.swift`.
    package var description: String {
        var parts: [String] = [level ?? "any level"]
        if let message { parts.append("\"\(message)\"") }
        if let site { parts.append("at \(site)") }
        return parts.joined(separator: " ")
    }
}

extension ExpectationParser {
    /// `{level: error, message: TEXT, site: File.swift[:LINE]}`, at least one key.
    func parseLogPattern(_ keyword: ExpectationKeyword, _ value: ScenarioNode) throws(ScenarioError) -> LogPattern {
        let what = "expectation '\(keyword.rawValue)'"
        let keys = ["level", "message", "site"]
        let entries = try value.entries("'\(keyword.rawValue)'", expected: "a mapping like {level: error, message: could not be opened}")
        for entry in entries where !keys.contains(entry.key) {
            throw ScenarioError("unknown key '\(entry.key)' in \(what); expected one of: " + keys.joined(separator: ", "),
                                at: entry.keyLocation, suggestion: ClosestName.suggestion(for: entry.key, among: keys))
        }
        let parameters = parameters(what, value, entries)
        guard !entries.isEmpty else {
            throw parameters.error("\(what) needs at least one of: level, message, site")
        }
        let pattern = LogPattern(level: try parameters.oneOf("level", AppLogRecord.levels),
                                 message: try parameters.string("message"), site: try parameters.string("site"))
        for key in ["message", "site"] where parameters.contains(key) && (key == "message" ? pattern.message : pattern.site)?.isEmpty != false {
            throw parameters.error("'\(key)' in \(what) is empty: it would match any record", at: key)
        }
        return pattern
    }
}
