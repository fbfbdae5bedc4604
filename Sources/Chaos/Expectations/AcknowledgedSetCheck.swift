/// Jepsen's set check over the records a case wrote: every write the app acknowledged
/// must be readable at the end; reads may also hold writes that failed from the user's
/// point of view but reached the disk ("recovered"), which is allowed.
public struct AcknowledgedSetCheck: Sendable, Equatable {
    /// Acknowledged, yet missing at the end.
    public var lost: [String]
    /// Present at the end though never attempted by the case.
    public var unexpected: [String]
    /// Attempted and not acknowledged, yet present: allowed.
    public var recovered: [String]
    /// Removals acknowledged, yet the record is back.
    public var resurrected: [String]
    public var acknowledgedCount: Int

    public init(acknowledged: Set<String>, attempted: Set<String>, removed: Set<String>, present: Set<String>) {
        let expected = acknowledged.subtracting(removed)
        lost = expected.subtracting(present).sorted()
        unexpected = present.subtracting(attempted).sorted()
        recovered = present.intersection(attempted.subtracting(acknowledged)).sorted()
        resurrected = removed.intersection(present).sorted()
        acknowledgedCount = expected.count
    }

    public var passed: Bool { lost.isEmpty && unexpected.isEmpty && resurrected.isEmpty }

    public var summary: String {
        func list(_ keys: [String]) -> String {
            keys.count <= 8 ? keys.joined(separator: ", ") : keys.prefix(8).joined(separator: ", ") + " … (\(keys.count))"
        }
        var parts = ["\(acknowledgedCount) acknowledged", "\(lost.count) lost", "\(unexpected.count) unexpected",
                     "\(recovered.count) recovered"]
        if !resurrected.isEmpty { parts.append("\(resurrected.count) resurrected") }
        var text = parts.joined(separator: ", ")
        if !lost.isEmpty { text += "; lost: " + list(lost) }
        if !unexpected.isEmpty { text += "; unexpected: " + list(unexpected) }
        if !resurrected.isEmpty { text += "; resurrected: " + list(resurrected) }
        return text
    }
}
