/// A target's snapshot from the app's own records, in one call:
///
/// ```swift
/// func snapshot() async throws -> [String: [String: String]] {
///     .records("note", try repository.all())            // Note: Identifiable → "note:42"
/// }
/// .records("entry", entries, id: \.id)                   // any id, an optional one too
/// ```
///
/// Each record's key is `TABLE:ID`, as the write action acknowledges it
/// (`call.acknowledge("note:\(note.id)")`); its row is the record as Swift describes it
/// (`String(describing:)`), which changes when any field does. A record without an id
/// (nil: not saved yet) is left out; of two with one id, the first is kept.
extension Dictionary where Key == String, Value == [String: String] {
    /// The table `table` of `records`, keyed by their `id`.
    public static func records<Records: Sequence>(_ table: String, _ records: Records) -> Self
    where Records.Element: Identifiable {
        Self.records(table, records, id: { $0.id })
    }

    /// The table `table` of `records`, keyed by what `id` gives.
    public static func records<Records: Sequence>(_ table: String, _ records: Records,
                                                  id: (Records.Element) -> Any?) -> Self {
        var rows: [String: String] = [:]
        for record in records {
            guard let key = id(record).flatMap(Self.plainID) else { continue }
            rows["\(table):\(key)"] = rows["\(table):\(key)"] ?? String(describing: record)
        }
        return [table: rows]
    }

    /// An id as text: `42`, not `Optional(42)`.
    static func plainID(_ id: Any) -> String? {
        if let optional = id as? any OptionalID { return optional.wrappedText }
        return "\(id)"
    }
}

/// An optional id, unwrapped: `.records(..., id: \.id)` with `id: Int64?`.
private protocol OptionalID { var wrappedText: String? { get } }
extension Optional: OptionalID {
    var wrappedText: String? { map { "\($0)" } }
}
