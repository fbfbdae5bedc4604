import ChaosTarget

/// Jepsen's set check over the records a case wrote: every write the app acknowledged
/// must be readable at the end; reads may also hold writes that failed from the user's
/// point of view but reached the disk ("recovered"), which is allowed.
///
/// An action cut by a power loss before it answered, or that answered with a failure,
/// may have written records whose keys nobody announced (a commit that landed just
/// before the cut, with the acknowledgement still on its way): while there is such an
/// action, a record no acknowledgement or announced attempt explains is
/// *indeterminate*, allowed. A record the app makes by itself (``OwnRecords``: sample
/// rows of a first launch) is *the app's own*, allowed. Only a record that no action,
/// finished or cut, and not the app itself can explain is *unexpected*. Likewise an
/// acknowledged record whose delete was announced and never confirmed (the action cut
/// mid-delete, or failed) may be gone: *indeterminate*, not lost.
package struct AcknowledgedSetCheck: Sendable, Equatable {
    /// Acknowledged, yet missing at the end.
    package var lost: [String]
    /// Acknowledged with a value, present at the end, but holding another: the app keeps
    /// (and may serve) something other than what the user saved.
    package var corrupted: [String] = []
    /// Present at the end though no action of the case can explain it.
    package var unexpected: [String]
    /// Present, not announced, but an unresolved action may have written it: allowed.
    package var indeterminate: [String]
    /// Present, not announced, and one the app makes by itself: allowed.
    package var own: [String]
    /// Attempted and not acknowledged, yet present: allowed.
    package var recovered: [String]
    /// Removals acknowledged, yet the record is back.
    package var resurrected: [String]
    package var acknowledgedCount: Int

    package init(acknowledged: Set<String>, attempted: Set<String>, removed: Set<String>, present: Set<String>,
                 removing: Set<String> = [], unresolvedActions: Int = 0, own isOwn: (String) -> Bool = { _ in false }) {
        self.init(acknowledged: RecordKeys(acknowledged), attempted: RecordKeys(attempted), removed: removed, presentKeys: present,
                  isPresent: present.contains, removing: removing, unresolvedActions: unresolvedActions, own: isOwn)
    }

    /// Which acknowledged records hold another value than the one acknowledged: of
    /// `values` (key → digest), those present (`row` gives their row now), not being
    /// rewritten, whose row's digest differs.
    static func corrupted(values: [String: UInt64], rewriting: Set<String>, removed: Set<String>, removing: Set<String>,
                          row: (String) -> String?) -> [String] {
        values.compactMap { key, digest in
            guard !rewriting.contains(key), !removed.contains(key), !removing.contains(key),
                  let now = row(key), RecordDigest.of(now) != digest else { return nil }
            return key
        }.sorted()
    }

    /// The check read in place: the present keys walked once, the sets of writes only
    /// looked up. No set of a million keys is built for it (the 1,000,000-record case).
    init(acknowledged: RecordKeys, attempted: RecordKeys, removed: Set<String>, presentKeys: some Sequence<String>,
         isPresent: (String) -> Bool, removing: Set<String>, unresolvedActions: Int, own isOwn: (String) -> Bool) {
        var lost: [String] = []
        var maybeRemoved: [String] = []
        var expected = 0
        for key in acknowledged where !removed.contains(key) {
            if removing.contains(key) {
                maybeRemoved.append(key)
            } else {
                expected += 1
                if !isPresent(key) { lost.append(key) }
            }
        }
        self.lost = lost.sorted()
        var unexplained = presentKeys.filter { !attempted.contains($0) && !acknowledged.contains($0) }.sorted()
        unexplained.removeAdjacentDuplicates()
        own = unexplained.filter(isOwn)
        unexplained.removeAll(where: isOwn)
        (unexpected, indeterminate) = unresolvedActions > 0 ? ([], unexplained) : (unexplained, [])
        indeterminate = (indeterminate + maybeRemoved).sorted()
        recovered = attempted.filter { !acknowledged.contains($0) && isPresent($0) }.sorted()
        resurrected = removed.filter(isPresent).sorted()
        acknowledgedCount = expected
    }

    package var passed: Bool { lost.isEmpty && corrupted.isEmpty && unexpected.isEmpty && resurrected.isEmpty }

    /// Lost or corrupted: acknowledged records the user no longer has as they saved them.
    package var damaged: [String] { (lost + corrupted).sorted() }

    package var summary: String {
        func list(_ keys: [String]) -> String {
            keys.count <= 8 ? keys.joined(separator: ", ") : keys.prefix(8).joined(separator: ", ") + " … (\(keys.count))"
        }
        var parts = ["\(acknowledgedCount) acknowledged", "\(lost.count) lost"]
        if !corrupted.isEmpty { parts.append("\(corrupted.count) corrupted") }
        parts += ["\(unexpected.count) unexpected", "\(recovered.count) recovered"]
        if !indeterminate.isEmpty { parts.append("\(indeterminate.count) indeterminate") }
        if !own.isEmpty { parts.append("\(own.count) the app's own") }
        if !resurrected.isEmpty { parts.append("\(resurrected.count) resurrected") }
        var text = parts.joined(separator: ", ")
        if !lost.isEmpty { text += "; lost: " + list(lost) }
        if !corrupted.isEmpty { text += "; corrupted (present, not as saved): " + list(corrupted) }
        if !unexpected.isEmpty { text += "; unexpected: " + list(unexpected) }
        if !resurrected.isEmpty { text += "; resurrected: " + list(resurrected) }
        return text
    }
}

extension AcknowledgedSetCheck {
    /// The check over a case's evidence: its writes, its unresolved actions, its final snapshot.
    init(_ evidence: CaseEvidence) {
        self.init(acknowledged: evidence.acknowledged, attempted: evidence.attempted, removed: evidence.removed,
                  presentKeys: evidence.presentKeys, isPresent: evidence.isPresent, removing: evidence.removing,
                  unresolvedActions: evidence.unresolvedActions.count,
                  own: { [own = evidence.ownRecords, snapshot = evidence.finalSnapshot ?? [:]] in own.contains($0, in: snapshot) })
        corrupted = Self.corrupted(values: evidence.acknowledgedValues, rewriting: evidence.rewriting, removed: evidence.removed,
                                   removing: evidence.removing, row: evidence.finalRow)
    }
}

private extension Array where Element: Equatable {
    /// A sorted array's repeats dropped: a key two tables hold is one record key.
    mutating func removeAdjacentDuplicates() {
        var kept: [Element] = []
        kept.reserveCapacity(count)
        for element in self where kept.last != element { kept.append(element) }
        self = kept
    }
}
