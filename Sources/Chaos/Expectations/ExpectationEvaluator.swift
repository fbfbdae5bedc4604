import ChaosTarget

/// Judges each expectation against a case's evidence and says what it saw.
package enum ExpectationEvaluator {
    package static func evaluate(_ expectation: Expectation, evidence: CaseEvidence) -> ExpectationResult {
        let judge = Judge(expectation: expectation)
        switch expectation {
        case .noTrap: return noTrap(evidence, judge)
        case let .fallback(mode): return fallback(mode, evidence, judge)
        case let .recoveredWithin(bound): return recovered(within: bound, evidence, judge)
        case let .responsiveWithin(bound): return responsive(within: bound, evidence, judge)
        case let .preserved(name) where name == Expectation.acknowledged: return acknowledged(evidence, judge)
        case let .preserved(name): return preserved(checkpoint: name, evidence, judge)
        case let .surfaced(level): return surfaced(level, evidence, judge)
        case let .state(probe, value):
            let judge = judge.seeing(.probe(answer: evidence.probes[probe]))
            guard let seen = evidence.probes[probe] else {
                return judge.missing(expected: "\(probe) = \(value)", observed: "not answered", evidence.evidenceGap)
            }
            return judge(seen == value, expected: "\(probe) = \(value)", observed: "\(probe) = \(seen)")
        case .integrity, .integrityIfUsed:
            return integrity(ifUsed: expectation == .integrityIfUsed, evidence, judge)
        case .noSilentLoss:
            return noSilentLoss(evidence, judge)
        case let .logged(pattern): return logged(pattern, evidence, judge)
        case let .notLogged(pattern): return notLogged(pattern, evidence, judge)
        case .privateLogs: return privateLogs(evidence, judge)
        case .liveAfterHealing: return liveAfterHealing(evidence, judge)
        case .claimsHold: return claimsHold(evidence, judge)
        case .damagedKept: return damagedKept(evidence, judge)
        case let .recordsAtLeast(count):
            let expected = "at least \(count) records after a restart"
            guard let snapshot = evidence.finalSnapshot else {
                return judge.seeing(.held(records: nil)).missing(expected: expected, observed: "not read", evidence.evidenceGap)
            }
            let held = snapshot.values.reduce(0) { $0 + $1.count }
            return judge.seeing(.held(records: held))(held >= count, expected: expected, observed: "\(held) record\(held == 1 ? "" : "s")",
                         detail: held >= count ? nil : "\(count - held) of the \(count) records are gone")
        }
    }

    static func integrity(ifUsed: Bool, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let judge = judge.seeing(.integrity(problem: evidence.integrityProblem))
        let expected = ifUsed ? "integrity_check ok, or the store no longer in use" : "integrity_check ok"
        if ifUsed, evidence.storeInUse == false {
            return judge(true, expected: expected, observed: "not in use: the app does not have the store open at the end",
                         detail: evidence.integrityProblem.map { "the file it left: \($0)" })
        }
        if let reason = evidence.integrityNotApplicable {
            // ok-if-used holds vacuously of a store that is not a database; ok cannot.
            return judge(ifUsed, expected: expected, observed: "not applicable: \(reason)",
                         detail: ifUsed ? nil : "integrity: ok needs a SQLite store; hold this target to integrity: ok-if-used")
        }
        guard evidence.integrityChecked else {
            return judge.missing(expected: expected, observed: "not checked", evidence.evidenceGap)
        }
        return judge(evidence.integrityProblem == nil, expected: expected, observed: evidence.integrityProblem ?? "ok")
    }

    /// Every acknowledged record is there as it was saved, or the user was told
    /// something is wrong. A record acknowledged with its value and present with another
    /// (`corrupted`) is no more kept than a missing one: the app would serve it as good.
    static func noSilentLoss(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let expected = "every acknowledged record kept as saved, or the loss shown to the user"
        guard evidence.finalSnapshot != nil else {
            return judge.missing(expected: expected, observed: ExpectationResult.noFinalSnapshot, evidence.evidenceGap, finalSnapshot: true)
        }
        let check = AcknowledgedSetCheck(evidence)
        let judged = judge.with(records: check)
        let damaged = check.damaged
        guard !damaged.isEmpty else {
            // Writes whose outcome the app could not know are said, though allowed.
            let uncertain = [("indeterminate", check.indeterminate.count), ("recovered", check.recovered.count)]
                .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            let byContent = evidence.acknowledgedValues.isEmpty ? "" : ", their content as saved"
            return judged(true, expected: expected, observed: "all \(check.acknowledgedCount) acknowledged records kept" + byContent
                + (uncertain.isEmpty ? "" : " (\(uncertain.joined(separator: ", ")): writes whose outcome the app could not know)"))
        }
        let severity = evidence.surfaced?["severity"]?.stringValue ?? "none"
        let lost = Self.damageWords(check)
        guard severity == "none" else {
            let message = evidence.surfaced?["message"]?.stringValue.map { " \"\($0)\"" } ?? ""
            return judged(true, expected: expected, observed: "\(lost); the user was told (\(severity)\(message))")
        }
        // A launch that told the user (a warning or an error: "restored from your most
        // recent backup") told them of what was acknowledged before it; only a loss no
        // launch since told of is silent (a hunt's schedule relaunches after the recovery).
        let told = damaged.filter { evidence.toldAtLaunch.contains($0) }
        if !told.isEmpty, told.count == damaged.count, let message = evidence.launchMessage {
            return judged(true, expected: expected, observed: "\(lost); the user was told at a launch after they were saved (\"\(message)\")")
        }
        let cause = LossCause.named(by: evidence)
        var result = judged(false, expected: expected, observed: "\(lost), and nothing shown to the user",
                            detail: [check.summary, cause?.line].compactMap { $0 }.joined(separator: "\n"))
        result.lossCause = cause
        return result
    }

    /// `2 of 5 acknowledged records lost`, `1 of 5 acknowledged records corrupted (present, not as saved)`, or both.
    static func damageWords(_ check: AcknowledgedSetCheck) -> String {
        let total = check.acknowledgedCount
        var parts: [String] = []
        if !check.lost.isEmpty { parts.append("\(check.lost.count) of \(total) acknowledged records lost") }
        if !check.corrupted.isEmpty {
            parts.append("\(check.corrupted.count)\(parts.isEmpty ? " of \(total) acknowledged records" : "") corrupted (present, not as saved)")
        }
        return parts.joined(separator: ", ")
    }

    /// Makes the result of one expectation.
    struct Judge {
        let expectation: Expectation

        /// The records an expectation on the user's data counted, carried as numbers beside its words.
        var records: RecordCounts?
        /// What it saw, as values beside its words.
        var observation: ExpectationObservation?

        func callAsFunction(_ passed: Bool, expected: String, observed: String, detail: String? = nil) -> ExpectationResult {
            var result = ExpectationResult(kind: expectation.wireName, label: expectation.label, passed: passed,
                                           expected: expected, observed: observed, detail: detail)
            result.records = records
            result.observation = observation
            return result
        }

        /// The same judge, carrying what it saw as values into what it makes.
        func seeing(_ observation: ExpectationObservation) -> Judge {
            var judge = self
            judge.observation = observation
            return judge
        }

        /// An expectation the evidence it needs was missing for: failed, with the gap's
        /// words as its detail and the gap typed beside them.
        func missing(expected: String, observed: String, _ gap: MissingEvidence?, finalSnapshot: Bool = false) -> ExpectationResult {
            var result = self(false, expected: expected, observed: observed, detail: gap?.text)
            if finalSnapshot || gap?.appEnd != nil { result.gap = EvidenceGap(finalSnapshot: finalSnapshot, appEnd: gap?.appEnd) }
            return result
        }

        /// The same judge, carrying `check`'s counts into what it makes.
        func with(records check: AcknowledgedSetCheck) -> Judge {
            Judge(expectation: expectation, records: RecordCounts(check), observation: .records(check))
        }
    }

    /// swift-log's message when `LoggingSystem.bootstrap` runs twice in a process.
    static let secondLoggingBootstrap = "logging system can only be initialized once per process"

    static func noTrap(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        if let trap = evidence.trap {
            let site = trap.site.map { " at \($0)" } ?? ""
            // The parser keeps "Assertion failed:" and "Precondition failed:": they say
            // which check stopped the app; only a plain fatal error needs its word back.
            var detail = trap.message.map { message in
                TrapParser.messageMarkers.contains { message.hasPrefix($0) } ? message : "Fatal error: \(message)"
            }
            if let note = trap.siteNote { detail = [detail, "no site: " + note].compactMap { $0 }.joined(separator: "\n") }
            if trap.message?.contains(Self.secondLoggingBootstrap) == true {
                detail? += "\n(the app bootstraps swift-log itself, after Chaos's worker host did: declare "
                    + "`static let logging = TargetLogging.own` in the target, and Chaos leaves logging to the app)"
            }
            return judge(false, expected: "no trap", observed: "\(trap.signalName)\(site)", detail: detail)
        }
        if let end = evidence.abnormalEnd {
            var result = judge(false, expected: "no trap, no hang", observed: end.sentence)
            result.end = end
            return result
        }
        return judge(true, expected: "no trap", observed: "no trap")
    }

    static func fallback(_ mode: String, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        guard let seen = evidence.health?["mode"] else {
            return judge.seeing(.mode(reported: nil)).missing(expected: "mode \(mode)", observed: "no health reported", evidence.evidenceGap)
        }
        let text = seen.stringValue ?? seen.description
        return judge.seeing(.mode(reported: text))(text == mode, expected: "mode \(mode)", observed: "mode \(text)",
                     detail: evidence.health?["loadError"]?.stringValue.map { "launch found: \($0)" })
    }

    static func recovered(within bound: Duration, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let boundMs = bound.wholeMilliseconds
        let slowestOver = evidence.slowestAnswer.flatMap { $0.ms > boundMs ? $0 : nil }
        let judge = judge.seeing(.duration(ms: evidence.recoveryMs, boundMs: boundMs, slowestMs: slowestOver?.ms))
        guard let measured = evidence.recoveryMs else {
            if let why = evidence.recoveryMissing { return judge(false, expected: "≤ \(boundMs) ms", observed: "not recovered", detail: why) }
            return judge.missing(expected: "≤ \(boundMs) ms", observed: "not recovered", evidence.evidenceGap)
        }
        // A quick first read after the last launch does not make up for an app that
        // stopped answering for longer than the bound earlier in the case.
        if let slowest = slowestOver {
            return judge(false, expected: "≤ \(boundMs) ms", observed: "\(measured) ms, but \(slowest.text)",
                         detail: "the app did not answer for longer than it may take to recover")
        }
        return judge(measured <= boundMs, expected: "≤ \(boundMs) ms", observed: "\(measured) ms")
    }

    static func responsive(within bound: Duration, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        let boundMs = bound.wholeMilliseconds
        let expected = "every launch and action answered in ≤ \(boundMs) ms"
        let judge = judge.seeing(.duration(ms: evidence.slowestAnswer?.ms, boundMs: boundMs, slowestMs: nil))
        guard let slowest = evidence.slowestAnswer else {
            return judge(true, expected: expected, observed: "no launch or action answered")
        }
        return judge(slowest.ms <= boundMs, expected: expected, observed: "the slowest: \(slowest.text)")
    }

    static func acknowledged(_ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        guard evidence.finalSnapshot != nil else {
            return judge.missing(expected: "every acknowledged write present", observed: ExpectationResult.noFinalSnapshot, evidence.evidenceGap, finalSnapshot: true)
        }
        let check = AcknowledgedSetCheck(evidence)
        let cause = check.lost.isEmpty ? nil : LossCause.named(by: evidence)
        var result = judge.with(records: check)(check.passed, expected: "\(check.acknowledgedCount) acknowledged, 0 lost, 0 unexpected", observed: check.summary,
                                                detail: check.lost.isEmpty ? OwnRecords.hint(for: check.unexpected) : cause?.line)
        result.lossCause = cause
        return result
    }

    static func preserved(checkpoint name: String, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        guard let checkpoint = evidence.checkpoints[name] else {
            return judge.missing(expected: "checkpoint \(name) kept", observed: "checkpoint \(name) was never taken", evidence.evidenceGap)
        }
        guard let final = evidence.finalSnapshot else {
            return judge.missing(expected: "checkpoint \(name) kept", observed: ExpectationResult.noFinalSnapshot, evidence.evidenceGap, finalSnapshot: true)
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
        let kept = missing.isEmpty && changed.isEmpty
        let keysKept = ExpectationObservation.keysKept
        let judge = judge.seeing(.checkpoint(total: total, missing: Array(missing.prefix(keysKept)), changed: Array(changed.prefix(keysKept))))
        let observed = kept ? "all \(total) records present" : "\(missing.count) missing, \(changed.count) changed of \(total)"
        let notes = [("missing", missing), ("changed", changed)].filter { !$0.1.isEmpty }.map { label, keys in
            "\(label): " + keys.prefix(8).joined(separator: ", ") + (keys.count > 8 ? " …" : "")
        }
        return judge(kept, expected: "all \(total) records of \(name)", observed: observed,
                     detail: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    static func surfaced(_ level: SurfaceLevel, _ evidence: CaseEvidence, _ judge: Judge) -> ExpectationResult {
        guard let surfaced = evidence.surfaced else {
            return judge.seeing(.surfaced(severity: nil, message: nil))
                .missing(expected: level.rawValue, observed: "nothing reported", evidence.evidenceGap)
        }
        let severity = surfaced["severity"]?.stringValue ?? "none"
        let message = surfaced["message"]?.stringValue
        let judge = judge.seeing(.surfaced(severity: severity, message: message))
        let shown = message.map { "\(severity): \"\($0)\"" } ?? severity
        guard severity == level.rawValue else { return judge(false, expected: level.rawValue, observed: shown) }
        if level != .none, let problem = JargonCheck.problem(in: message ?? "") {
            return judge(false, expected: "\(level.rawValue), in plain words", observed: shown, detail: problem)
        }
        return judge(true, expected: level.rawValue, observed: shown)
    }
}

extension ScenarioValue {
    /// The text of a `.string`, nil otherwise.
    package var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }
}
