/// Judges each expectation against a case's evidence and says what it saw.
public enum ExpectationEvaluator {
    public static func evaluate(_ expectation: Expectation, evidence: CaseEvidence) -> ExpectationResult {
        let kind = expectation.wireName
        let label = expectation.label
        func result(_ passed: Bool, expected: String, observed: String, detail: String? = nil) -> ExpectationResult {
            ExpectationResult(kind: kind, label: label, passed: passed, expected: expected, observed: observed, detail: detail)
        }
        switch expectation {
        case .noTrap:
            if let trap = evidence.trap {
                let site = trap.site.map { " at \($0)" } ?? ""
                return result(false, expected: "no trap", observed: "\(trap.signalName)\(site)",
                              detail: trap.message.map { "Fatal error: \($0)" })
            }
            if let end = evidence.abnormalEnd {
                return result(false, expected: "no trap, no hang", observed: end)
            }
            return result(true, expected: "no trap", observed: "no trap")

        case let .fallback(mode):
            guard let seen = evidence.health?["mode"] else {
                return result(false, expected: "mode \(mode)", observed: "no health reported", detail: evidence.evidenceGap)
            }
            let text = seen.stringValue ?? seen.description
            return result(text == mode, expected: "mode \(mode)", observed: "mode \(text)",
                          detail: evidence.health?["loadError"]?.stringValue.map { "launch found: \($0)" })

        case let .recoveredWithin(bound):
            let boundMs = Int(bound.components.seconds * 1000 + bound.components.attoseconds / 1_000_000_000_000_000)
            guard let measured = evidence.recoveryMs else {
                return result(false, expected: "≤ \(boundMs) ms", observed: "not recovered",
                              detail: evidence.recoveryMissing ?? evidence.evidenceGap)
            }
            return result(measured <= boundMs, expected: "≤ \(boundMs) ms", observed: "\(measured) ms")

        case let .preserved(name) where name == Expectation.acknowledged:
            guard evidence.finalSnapshot != nil else {
                return result(false, expected: "every acknowledged write present", observed: "no final snapshot",
                              detail: evidence.evidenceGap)
            }
            let check = AcknowledgedSetCheck(acknowledged: evidence.acknowledged, attempted: evidence.attempted,
                                             removed: evidence.removed, present: evidence.presentKeys)
            return result(check.passed, expected: "\(check.acknowledgedCount) acknowledged, 0 lost, 0 unexpected",
                          observed: check.summary)

        case let .preserved(name):
            guard let checkpoint = evidence.checkpoints[name] else {
                return result(false, expected: "checkpoint \(name) kept", observed: "checkpoint \(name) was never taken",
                              detail: evidence.evidenceGap)
            }
            guard let final = evidence.finalSnapshot else {
                return result(false, expected: "checkpoint \(name) kept", observed: "no final snapshot", detail: evidence.evidenceGap)
            }
            var missing: [String] = []
            var changed: [String] = []
            var total = 0
            for (table, records) in checkpoint {
                for (key, row) in records {
                    total += 1
                    guard let now = final[table]?[key] else { missing.append(key); continue }
                    if now != row { changed.append(key) }
                }
            }
            missing.sort()
            changed.sort()
            let observed = missing.isEmpty && changed.isEmpty
                ? "all \(total) records present"
                : "\(missing.count) missing, \(changed.count) changed of \(total)"
            var notes: [String] = []
            if !missing.isEmpty { notes.append("missing: " + missing.prefix(8).joined(separator: ", ") + (missing.count > 8 ? " …" : "")) }
            if !changed.isEmpty { notes.append("changed: " + changed.prefix(8).joined(separator: ", ") + (changed.count > 8 ? " …" : "")) }
            let detail = notes.isEmpty ? nil : notes.joined(separator: "; ")
            return result(missing.isEmpty && changed.isEmpty, expected: "all \(total) records of \(name)", observed: observed, detail: detail)

        case let .surfaced(level):
            guard let surfaced = evidence.surfaced else {
                return result(false, expected: level.rawValue, observed: "nothing reported", detail: evidence.evidenceGap)
            }
            let severity = surfaced["severity"]?.stringValue ?? "none"
            let message = surfaced["message"]?.stringValue
            let shown = message.map { "\(severity): \"\($0)\"" } ?? severity
            if severity != level.rawValue {
                return result(false, expected: level.rawValue, observed: shown)
            }
            if level != .none {
                if let problem = JargonCheck.problem(in: message ?? "") {
                    return result(false, expected: "\(level.rawValue), in plain words", observed: shown, detail: problem)
                }
            }
            return result(true, expected: level.rawValue, observed: shown)

        case let .state(probe, value):
            guard let seen = evidence.probes[probe] else {
                return result(false, expected: "\(probe) = \(value)", observed: "not answered", detail: evidence.evidenceGap)
            }
            return result(seen == value, expected: "\(probe) = \(value)", observed: "\(probe) = \(seen)")

        case .integrity:
            guard evidence.integrityChecked else {
                return result(false, expected: "integrity_check ok", observed: "not checked", detail: evidence.evidenceGap)
            }
            if let problem = evidence.integrityProblem {
                return result(false, expected: "integrity_check ok", observed: problem)
            }
            return result(true, expected: "integrity_check ok", observed: "ok")
        }
    }
}

extension ScenarioValue {
    /// The text of a `.string`, nil otherwise.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }
}
