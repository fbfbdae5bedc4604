import ChaosTarget

/// The oracles of what the user was promised beyond their records' keys: that the app
/// comes back once what broke it is gone, and that a file it could not read is set
/// aside, never destroyed (the seeds: "quarantine the damaged files, never delete them").
extension ExpectationEvaluator {
    /// `live-after-healing`: with every fault cleared before the last launch (file
    /// damage aside, when a good copy was left), that launch does not answer "unavailable"
    /// (an error: "try again later" for ever is no recovery, though the user is told),
    /// and a read answers after it.
    static func liveAfterHealing(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "the app serves the user's data again once every fault is cleared"
        let mode = evidence.health?["mode"]?.stringValue
        let severity = evidence.health?["severity"]?.stringValue
        guard evidence.healedBeforeLastLaunch else {
            return judge.seeing(.healing(held: false, mode: mode, severity: severity))(
                true, expected: expected, observed: "not held: a fault still stood at the last launch")
        }
        if let lasting = evidence.damages.first(where: { $0.permanent || !$0.goodCopy }) {
            let why = lasting.permanent ? "\(lasting.kind) of \(lasting.file) stays for good"
                : "\(lasting.kind) of \(lasting.file) left no other file holding data to come back from"
            return judge.seeing(.healing(held: false, mode: mode, severity: severity))(true, expected: expected, observed: "not held: \(why)")
        }
        let judge = judge.seeing(.healing(held: true, mode: mode, severity: severity))
        guard evidence.health != nil else {
            return judge.missing(expected: expected, observed: "no launch after the faults were cleared answered", evidence.evidenceGap)
        }
        if severity == Severity.error.rawValue {
            let message = evidence.health?["message"]?.stringValue.map { ": \"\($0)\"" } ?? ""
            return judge(false, expected: expected, observed: "the last launch, after every fault was cleared, still said the data cannot be served"
                         + " (\(mode ?? "no mode"), error)\(message)",
                         detail: evidence.damages.isEmpty ? nil : "A good copy was there: another of the app's files held data when "
                            + evidence.damages.map { "\($0.file) was damaged" }.joined(separator: ", ") + ".")
        }
        if let empty = emptyReadAfterHealing(evidence) {
            return judge(false, expected: expected, observed: empty)
        }
        if evidence.recoveryMs == nil, let missing = evidence.recoveryMissing {
            return judge(false, expected: expected, observed: "no read answered after the faults were cleared: \(missing)")
        }
        return judge(true, expected: expected, observed: "the last launch served the data (\(mode ?? "no mode"), \(severity ?? "nothing told"))")
    }

    /// A closing read that answered no record at all where the user's records were
    /// acknowledged and none removed: an empty answer is no recovery. Only when no file was
    /// damaged: a copy taken before the first save may rightly hold nothing.
    private static func emptyReadAfterHealing(_ evidence: CaseEvidence) -> String? {
        guard evidence.damages.isEmpty, let snapshot = evidence.finalSnapshot, snapshot.values.allSatisfy(\.isEmpty) else { return nil }
        let kept = evidence.acknowledged.filter { !evidence.removed.contains($0) && !evidence.removing.contains($0) }
        guard !kept.isEmpty else { return nil }
        return "the read after every fault was cleared answered 0 records, where \(kept.count) acknowledged record(s) were never removed: "
            + "an empty answer is no recovery"
    }

    /// `damaged-kept`: the store, after its last damage, if the next launch showed the app
    /// could not read it, is still in the data folder (at least half its 4 KiB chunks,
    /// byte for byte, in some file there), or that launch said it is gone (`discarded`).
    /// Only the store and only its last damage: a copy the app keeps (`backup`) is its own
    /// to refresh at the next save, and a store damaged again after being set aside holds
    /// the user's newer data, which is what a second set-aside keeps.
    static func damagedKept(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "a damaged store the app could not read is set aside, never destroyed, or the user told it is gone"
        let last = evidence.damages.last(where: { $0.file == "store" })
        let held = [last].compactMap { $0 }.filter { !$0.chunks.isEmpty && $0.noticed == true && !$0.toldGone }
        let destroyed = held.filter { $0.kept == false }
        let judge = judge.seeing(.destroyed(files: destroyed.map(\.file)))
        guard !held.isEmpty else {
            return judge(true, expected: expected, observed: last == nil ? "the store was not damaged"
                         : "the app read the damaged store as it was, or the damage left no bytes")
        }
        guard destroyed.isEmpty else {
            let names = destroyed.map { "\($0.file) (damaged at step \($0.step))" }.joined(separator: ", ")
            return judge(false, expected: expected, observed: "\(names): the app could not read it, and its bytes are nowhere in the data folder "
                         + "at the end: destroyed, not set aside", detail: "Its next launch reported another mode than persistent or told the "
                            + "user of a problem, and did not say the data is gone (the `discarded` mode).")
        }
        guard !held.contains(where: { $0.kept == nil }) else {
            return judge.missing(expected: expected, observed: "the data folder was not read at the end", evidence.evidenceGap)
        }
        return judge(true, expected: expected, observed: held.map(\.file).joined(separator: ", ") + " kept in the data folder")
    }
}
