import ChaosTarget

/// The oracle of what the app says is kept elsewhere: a record it shows as synced (or
/// uploaded) is on the remote, as the remote itself answers — never judged by the app's
/// word alone. The seeds' "never tell the user a thing is safe when it is not".
extension ExpectationEvaluator {
    /// `claims-hold`: every key the app claimed, at the end of the case, to be on a remote
    /// is in that remote's declared snapshot, asked of the remote itself then.
    static func claimsHold(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "every record the app shows as kept on a remote is there"
        guard let claims = evidence.claims else {
            return judge.seeing(.claims(missing: [:])).missing(expected: expected, observed: "the app was not asked what it claims", evidence.evidenceGap)
        }
        let claimed = claims.filter { !$0.value.isEmpty }
        guard !claimed.isEmpty else {
            return judge.seeing(.claims(missing: [:]))(true, expected: expected, observed: "the app claimed no record is kept on a remote")
        }
        var missing: [String: [String]] = [:]
        var unchecked: [String] = []
        for (remote, keys) in claimed.sorted(by: { $0.key < $1.key }) {
            guard let held = evidence.remoteHolds[remote] else { unchecked.append(remote); continue }
            let lacking = keys.filter { !held.contains($0) }
            if !lacking.isEmpty { missing[remote] = lacking }
        }
        let judge = judge.seeing(.claims(missing: missing.mapValues { Array($0.prefix(ExpectationObservation.keysKept)) }))
        if !missing.isEmpty {
            let words = missing.sorted { $0.key < $1.key }.map { remote, keys in
                "\(keys.count) of the \(claimed[remote]?.count ?? 0) record(s) it shows as kept on \(remote) are not there ("
                    + keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "") + ")"
            }
            return judge(false, expected: expected, observed: "the app tells the user what is not true: " + words.joined(separator: "; "),
                         detail: "Asked of the remote itself, at its declared snapshot, once the steps were done.")
        }
        guard unchecked.isEmpty else {
            return judge.missing(expected: expected, observed: "no snapshot of " + unchecked.joined(separator: ", ")
                                 + " to hold the app's claims against (the remote declares none, or did not answer)", evidence.evidenceGap)
        }
        let count = claimed.values.reduce(0) { $0 + $1.count }
        return judge(true, expected: expected, observed: "all \(count) record(s) the app shows as kept on "
                     + claimed.keys.sorted().joined(separator: ", ") + " are there")
    }
}
