import FaultPoints
import Foundation

/// What a crash log says about a trap, as far as matching goes: the site (`File.swift:LINE`
/// of the first frame in project code) and the `Fatal error` message.
package struct CrashSignature: Sendable, Equatable {
    package var site: String?
    package var message: String?

    package init(site: String?, message: String?) {
        self.site = site
        self.message = message
    }

    /// The seed an aimed hunt for this crash runs with: drawn from the site and the
    /// message, so the same log gives the same hunt, and as short as a hunt's own seeds.
    package var huntSeed: UInt64 {
        FNV1a.hash64((site ?? "") + "\n" + (message ?? "")) % 9_999_999 + 1
    }

    /// Reads a crash log: Apple's `.crash` text or `.ips` JSON (``AppleCrashReport``), or
    /// the Swift runtime's Linux backtrace (a worker's stderr, or a user's app).
    package init(log text: String) {
        if let apple = AppleCrashReport.signature(text) {
            self = apple
        } else {
            self.init(site: TrapParser.site(in: text), message: TrapParser.message(in: text).map(Self.normalized))
        }
    }

    package var isEmpty: Bool { site == nil && message == nil }

    /// How a trap matches this signature, nil when it does not.
    package func match(_ trap: TrapRecord) -> CrashMatch? {
        let sameSite = site != nil && trap.site == site
        let sameMessage = message.map { Self.sameMessage($0, trap.message) } ?? false
        switch (sameSite, sameMessage) {
        case (true, true): return .siteAndMessage
        case (true, false): return .site
        case (false, true): return .message
        case (false, false): return nil
        }
    }

    /// Two `Fatal error` messages are the same when they agree once trimmed of quotes
    /// and white space, or one begins the other (a log may cut a long message short).
    static func sameMessage(_ logged: String, _ trapped: String?) -> Bool {
        guard let trapped else { return false }
        let (a, b) = (normalized(logged), normalized(trapped))
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let shorter = min(a.count, b.count)
        return shorter >= 20 && (a.hasPrefix(b) || b.hasPrefix(a))
    }

    /// The message trimmed, without the quotes a crash report may wrap it in.
    static func normalized(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        for (open, close) in [("\"", "\""), ("“", "”")] where text.count >= 2 && text.hasPrefix(open) && text.hasSuffix(close) {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return text
    }
}

/// How well a case's trap matches a crash log, best first.
package enum CrashMatch: Int, Sendable, Comparable, CaseIterable {
    case siteAndMessage = 3
    case site = 2
    case message = 1

    package static func < (lhs: CrashMatch, rhs: CrashMatch) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Why it matched, for a person.
    package var reason: String {
        switch self {
        case .siteAndMessage: "same site and same message"
        case .site: "same site"
        case .message: "same message"
        }
    }
}
