import Foundation
import ChaosTarget

/// Finds technical terms in a message meant for a user: SQLite result codes, errno
/// names, Swift type names, "nil", "Optional(". A surfaced message (docs/SCENARIOS.md, `surfaced:`) is
/// non-empty and free of technical jargon.
package enum JargonCheck {
    private static let patterns: [(String, String)] = [
        (#"SQLITE_[A-Z_]+"#, "an SQLite result code"),
        (#"(?i)sqlite"#, "the name SQLite"),
        (#"\bE(NOSPC|IO|ACCES|PERM|NOENT|ROFS|BUSY|AGAIN|INTR|DQUOT|FBIG|NOMEM)\b"#, "an errno name"),
        (#"\bnil\b"#, "\"nil\""),
        (#"Optional\("#, "\"Optional(\""),
        (#"\b[A-Z][a-z]+(?:[A-Z][a-z0-9]*)*(?:Error|Exception)\b"#, "a type name"),
        (#"Error Domain="#, "an NSError description"),
        (#"(?i)\b(?:error|code|errno) ?[:=#]? ?-?\d+\b"#, "an error code"),
        (#"\b0x[0-9a-fA-F]+\b"#, "an address"),
    ]

    /// What is wrong with `message` for a user, or nil when it reads fine.
    package static func problem(in message: String) -> String? {
        if message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "the message is empty" }
        for (pattern, what) in patterns {
            if let range = message.range(of: pattern, options: .regularExpression) {
                return "contains \(what): '\(message[range])'"
            }
        }
        return nil
    }
}
