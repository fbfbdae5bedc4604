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
