import ChaosTarget
import Foundation

/// `logged:`, `not-logged:` and `private-logs`: the app's swift-log records as evidence
/// (seeds 000, 001, 003: errors logged with their file, function and line; seed 001: no
/// personal data in a log).
extension ExpectationEvaluator {
    static func logged(_ pattern: LogPattern, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "a record logged: \(pattern.description)"
        if let reason = evidence.logsNotRead {
            return judge(false, expected: expected, observed: "no logs read", detail: reason)
        }
        if let match = evidence.logs.first(where: pattern.matches) {
            return judge(true, expected: expected, observed: "step \(match.step): \(match.text)", detail: "in \(match.function)")
        }
        let observed = evidence.logs.isEmpty && evidence.logsDropped == 0 ? "nothing logged" : "no such record among \(logSummary(evidence))"
        return judge(false, expected: expected, observed: observed,
                     detail: evidence.logs.last.map { "the last: \($0.text)" })
    }

    static func notLogged(_ pattern: LogPattern, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "no record logged: \(pattern.description)"
        if let reason = evidence.logsNotRead {
            return judge(false, expected: expected, observed: "no logs read", detail: reason)
        }
        let matches = evidence.logs.filter(pattern.matches)
        guard let first = matches.first else {
            return judge(true, expected: expected, observed: "none among \(logSummary(evidence))")
        }
        return judge(false, expected: expected, observed: "\(matches.count) logged; the first at step \(first.step): \(first.text)")
    }

    static func privateLogs(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "no log record holding what the user typed or saved"
        if let reason = evidence.logsNotRead {
            return judge(false, expected: expected, observed: "no logs read", detail: reason)
        }
        let contents = (evidence.userInput + UserContent.of(acknowledged: evidence.acknowledged, in: evidence))
            .filter(\.isTelling)
        for entry in evidence.logs {
            for written in entry.writtenText {
                if let leak = contents.first(where: { written.contains($0.text) }) {
                    return judge(false, expected: expected, observed: "\"\(leak.text)\" of \(leak.key) in a log record at step \(entry.step)",
                                 detail: entry.text)
                }
            }
        }
        return judge(true, expected: expected,
                     observed: "none of \(contents.count) typed or saved values in \(logSummary(evidence))")
    }

    /// `12 records (3 error, 9 info)`.
    static func logSummary(_ evidence: CaseEvidence) -> String {
        let count = evidence.logs.count + evidence.logsDropped
        guard count > 0 else { return "no records logged" }
        var byLevel: [String: Int] = [:]
        for entry in evidence.logs { byLevel[entry.level, default: 0] += 1 }
        let levels = AppLogRecord.levels.reversed().compactMap { level in byLevel[level].map { "\($0) \(level)" } }
        return "\(count) record\(count == 1 ? "" : "s") logged (\(levels.joined(separator: ", ")))"
    }
}

/// What the user typed or saved: what a log must never hold. The text arguments of the
/// scenario's actions, and the values of each acknowledged record as the app's
/// snapshots gave them (the end of the case and every checkpoint): the quoted strings
/// of a row (GRDB's `[id:1 name:"Rose"]`), else the values of its `key=value`,
/// `key: value` or `a|b|c` parts. Values shorter than 4 characters or without a letter
/// (ids, counts, flags) say nothing of the user and are left out.
package struct UserContent: Sendable, Equatable {
    /// The record key, or the action and argument it was typed into.
    var key: String
    var text: String

    /// Long enough, and with a letter, to say something of the user (not an id or a flag).
    var isTelling: Bool { text.count >= 4 && text.contains(where: \.isLetter) }

    static func of(acknowledged: RecordKeys, in evidence: CaseEvidence) -> [UserContent] {
        var rows: [String: String] = [:]
        let snapshots = [evidence.finalSnapshot ?? [:]] + evidence.checkpoints.keys.sorted().compactMap { evidence.checkpoints[$0] }
        for snapshot in snapshots {
            for records in snapshot.values {
                for (key, row) in records where acknowledged.contains(key) { rows[key] = rows[key] ?? row }
            }
        }
        var seen: Set<String> = []
        var contents: [UserContent] = []
        for key in rows.keys.sorted() {
            for value in values(in: rows[key] ?? "") where seen.insert(value).inserted {
                contents.append(UserContent(key: key, text: value))
            }
        }
        return contents
    }

    static func values(in row: String) -> [String] {
        let quoted = row.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let parts = quoted.isEmpty
            ? row.split(whereSeparator: { "|,;\t\n".contains($0) }).map { part -> String in
                let text = String(part)
                guard let separator = text.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return text }
                return String(text[text.index(after: separator)...])
            }
            : quoted
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
