import ChaosTarget

/// Jepsen's set check over the records a case wrote: every write the app acknowledged
/// must be readable at the end; reads may also hold writes that failed from the user's
/// point of view but reached the disk ("recovered"), which is allowed.
package struct AcknowledgedSetCheck: Sendable, Equatable {
    /// Acknowledged, yet missing at the end.
    package var lost: [String]
    /// Present at the end though never attempted by the case.
    package var unexpected: [String]
    /// Attempted and not acknowledged, yet present: allowed.
    package var recovered: [String]
    /// Removals acknowledged, yet the record is back.
    package var resurrected: [String]
    package var acknowledgedCount: Int

    package init(acknowledged: Set<String>, attempted: Set<String>, removed: Set<String>, present: Set<String>) {
        let expected = acknowledged.subtracting(removed)
        lost = expected.subtracting(present).sorted()
        unexpected = present.subtracting(attempted).sorted()
        recovered = present.intersection(attempted.subtracting(acknowledged)).sorted()
        resurrected = removed.intersection(present).sorted()
        acknowledgedCount = expected.count
    }

    package var passed: Bool { lost.isEmpty && unexpected.isEmpty && resurrected.isEmpty }

    package var summary: String {
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
