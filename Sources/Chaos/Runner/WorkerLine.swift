import ChaosTarget
import Foundation

/// One line a worker wrote while it answered a request, read: an event, the reply, a
/// line past a bound (the case ends at once, naming it), or anything else (not a
/// protocol line: stderr's business, passed over).
enum WorkerLine {
    case event(WorkerEvent)
    case reply(WorkerReply)
    case broke(String)
    case other

    /// Reads `text`, a line answering request `id`.
    init(_ text: String, answering id: Int, decoder: JSONDecoder) {
        if let event = WorkerEvent.plain(line: text) {
            self = WorkerLineBounds.problem(with: event).map(WorkerLine.broke) ?? .event(event)
            return
        }
        if let problem = WorkerLineBounds.problem(with: text) {
            self = .broke(problem)
            return
        }
        // Lines are written with sorted keys: an event starts with its "event" key, or its
        // "digest" before it (deciding by a failed decode costs more than the decode).
        if Self.isEvent(text) {
            guard let event = try? decoder.decode(WorkerEvent.self, from: Data(text.utf8)) else {
                self = .other
                return
            }
            self = WorkerLineBounds.problem(with: event).map(WorkerLine.broke) ?? .event(event)
            return
        }
        do {
            let reply = try decoder.decode(WorkerReply.self, from: Data(text.utf8))
            self = reply.id == id ? .reply(reply) : .other
        } catch {
            // A line that answers this request but cannot be read is the app's failure,
            // said at once — not a silence the case blames for a hang.
            let answers = (try? decoder.decode(ReplyID.self, from: Data(text.utf8)))?.id == id
            self = answers ? .broke("the worker's reply to request \(id) could not be read: \(Self.describe(error))") : .other
        }
    }

    /// Whether a line of sorted keys is an event's (never a reply's: a reply has no "event").
    static func isEvent(_ text: String) -> Bool {
        text.hasPrefix(#"{"event""#) || text.hasPrefix(#"{"digest""#)
    }

    /// The id of a line that looks like a reply.
    private struct ReplyID: Decodable { var id: Int }

    /// A decoding error in a sentence: where in the reply, and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default: return String(describing: error)
        }
    }
}

/// What a line from a worker may be before the controller reads it: a bound on the work
/// and memory any app can make the controller spend. A reply is records and values, a
/// few levels deep; a record key is a table and an id. A line past a bound ends the case
/// at once, naming the bound, instead of costing seconds to decode (Foundation's decoder
/// took ~4 s on a reply nested 510 deep) or being dropped without a word.
enum WorkerLineBounds {
    /// Levels of `[` and `{` a line may open: a reply's snapshot is 4 deep, a probe's value a few more.
    static let maxDepth = 64
    /// Bytes of a record key (`note:42`, `file:2024/photo.jpg`).
    static let maxKeyBytes = 1024

    /// The deepest nesting of `line` as JSON, counted up to `limit + 1` (past it, the
    /// count stops): one pass over the bytes, strings and their escapes skipped.
    static func depth(of line: String, limit: Int = maxDepth) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in line.utf8 {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Why `line` is past a bound; nil when it is within them.
    static func problem(with line: String) -> String? {
        guard depth(of: line) > maxDepth else { return nil }
        return "the worker wrote a line nested more than \(maxDepth) levels deep (of [ and {): Chaos reads none deeper; "
            + "a reply holds records and values, not a tree"
    }

    /// Why `event`'s record key is past the bound; nil when it is within it.
    static func problem(with event: WorkerEvent) -> String? {
        guard let key = event.key, key.utf8.count > maxKeyBytes else { return nil }
        return "the app told a record key of \(key.utf8.count) bytes (\(event.event.rawValue) \"\(TerminalText.clean(String(key.prefix(40))))…\"): "
            + "a record key is at most \(maxKeyBytes) bytes, a table and an id (note:42) — give the record's value to "
            + "`call.acknowledge(key, value:)`, not its key"
    }
}
