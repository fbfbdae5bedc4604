import Testing
@testable import Chaos
@testable import ChaosTarget

/// Each expectation kind judged against evidence that passes and evidence that fails,
/// with what `expected`, `observed` and `detail` tell the reader of a report.
@Suite("Expectation evaluator")
struct ExpectationEvaluatorTests {
    private static let gap = "not reached: the app trapped"

    private func evaluate(_ expectation: Chaos.Expectation, _ build: (inout CaseEvidence) -> Void = { _ in }) -> ExpectationResult {
        var evidence = CaseEvidence()
        build(&evidence)
        return ExpectationEvaluator.evaluate(expectation, evidence: evidence)
    }

    private func surfacedEvidence(_ severity: String, _ message: String?) -> (inout CaseEvidence) -> Void {
        { $0.surfaced = ["severity": .string(severity), "message": message.map(ScenarioValue.string) ?? .null] }
    }

    // MARK: Kind and label

    @Test func resultCarriesTheWireNameAndTheLabelAsWritten() {
        let result = evaluate(.fallback("in-memory"))
        #expect(result.kind == "fallback")
        #expect(result.label == "fallback: in-memory")
    }

    // MARK: no-trap

    @Test func noTrapPassesWhenTheWorkerNeitherTrappedNorHung() {
        let result = evaluate(.noTrap)
        #expect(result.passed)
        #expect(result.observed == "no trap")
        #expect(result.detail == nil)
    }

    @Test func trapFailsNoTrapNamingSignalAndSite() {
        let result = evaluate(.noTrap) {
            $0.trap = TrapRecord(signal: 4, signalName: "SIGILL", message: "Index out of range", site: "LegacyQuiz.swift:42")
            $0.evidenceGap = MissingEvidence(text: Self.gap)
        }
        #expect(!result.passed)
        #expect(result.expected == "no trap")
        #expect(result.observed == "SIGILL at LegacyQuiz.swift:42")
        #expect(result.detail == "Fatal error: Index out of range")
    }

    @Test func aDependencysAssertionIsShownAsTheAssertionItWas() {
        let result = evaluate(.noTrap) {
            $0.trap = TrapRecord(signal: 4, signalName: "SIGILL", message: "Assertion failed: SQLiteConnection was not closed before deinitializing")
        }
        #expect(result.observed == "SIGILL")
        #expect(result.detail == "Assertion failed: SQLiteConnection was not closed before deinitializing")
    }

    @Test func anAppThatBootstrapsSwiftLogItselfIsToldHowToDeclareIt() {
        let result = evaluate(.noTrap) {
            $0.trap = TrapRecord(signal: 4, signalName: "SIGILL", message: "Precondition failed: logging system can only be initialized once per process.")
        }
        #expect(result.detail?.contains("TargetLogging.own") == true, "\(result.detail ?? "")")
    }

    @Test func trapWithoutSiteOrMessageStillFailsNoTrapNamingTheSignal() {
        let result = evaluate(.noTrap) { $0.trap = TrapRecord(signal: 11, signalName: "SIGSEGV") }
        #expect(!result.passed)
        #expect(result.observed == "SIGSEGV")
        #expect(result.detail == nil)
    }

    @Test func hangFailsNoTrapWithTheAbnormalEndAsObserved() {
        let end = AppEnd.hung(.init(during: nil, seen: "no ready line"))
        let hang = end.sentence
        let result = evaluate(.noTrap) {
            $0.abnormalEnd = end
            $0.evidenceGap = .notReached(.hung)
        }
        #expect(!result.passed)
        #expect(result.expected == "no trap, no hang")
        #expect(result.observed == hang)
        #expect(result.end == end)
    }

    // MARK: fallback

    @Test func fallbackPassesWhenHealthReportsTheMode() {
        let result = evaluate(.fallback("restored-from-backup")) { $0.health = ["mode": .string("restored-from-backup"), "loadError": .null] }
        #expect(result.passed)
        #expect(result.expected == "mode restored-from-backup")
        #expect(result.observed == "mode restored-from-backup")
        #expect(result.detail == nil)
    }

    @Test func fallbackFailsOnAnotherModeNamingTheObservedModeAndLoadError() {
        let result = evaluate(.fallback("restored-from-backup")) {
            $0.health = ["mode": .string("in-memory"), "loadError": .string("file is not a database")]
        }
        #expect(!result.passed)
        #expect(result.observed == "mode in-memory")
        #expect(result.detail == "launch found: file is not a database")
    }

    @Test func fallbackFailsWithTheEvidenceGapWhenNoHealthWasReported() {
        let result = evaluate(.fallback("in-memory")) { $0.evidenceGap = MissingEvidence(text: Self.gap) }
        #expect(!result.passed)
        #expect(result.observed == "no health reported")
        #expect(result.detail == Self.gap)
    }

    // MARK: recovered-within

    @Test func recoveredWithinPassesAtExactlyTheBound() {
        let result = evaluate(.recoveredWithin(.seconds(5))) { $0.recoveryMs = 5000 }
        #expect(result.passed)
        #expect(result.expected == "≤ 5000 ms")
        #expect(result.observed == "5000 ms")
    }

    @Test func recoveredWithinFailsOneMillisecondOverTheBound() {
        let result = evaluate(.recoveredWithin(.seconds(5))) { $0.recoveryMs = 5001 }
        #expect(!result.passed)
        #expect(result.observed == "5001 ms")
    }

    @Test func recoveredWithinCountsSubSecondBoundsInMilliseconds() {
        let result = evaluate(.recoveredWithin(.milliseconds(250))) { $0.recoveryMs = 251 }
        #expect(!result.passed)
        #expect(result.expected == "≤ 250 ms")
    }

    @Test func recoveredWithinFailsWithTheReasonWhenRecoveryWasNotMeasured() {
        let result = evaluate(.recoveredWithin(.seconds(5))) {
            $0.recoveryMissing = "no successful read after the last launch"
            $0.evidenceGap = MissingEvidence(text: Self.gap)
        }
        #expect(!result.passed)
        #expect(result.observed == "not recovered")
        #expect(result.detail == "no successful read after the last launch")
    }

    @Test func recoveredWithinFallsBackToTheEvidenceGap() {
        let result = evaluate(.recoveredWithin(.seconds(5))) { $0.evidenceGap = MissingEvidence(text: Self.gap) }
        #expect(!result.passed)
        #expect(result.detail == Self.gap)
    }

    // MARK: preserved: CHECKPOINT

    private static let beforeFault: [String: [String: String]] = [
        "favorites": ["favorites:1": "[id:1 title:\"Paris\"]", "favorites:2": "[id:2 title:\"Rome\"]"],
        "notes": ["notes:1": "[id:1 text:\"pack light\"]"],
    ]

    @Test func preservedCheckpointPassesWhenEveryRecordIsUnchanged() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = Self.beforeFault
            var final = Self.beforeFault
            final["favorites"]?["favorites:3"] = "[id:3 title:\"Oslo\"]"  // added records are fine
            $0.finalSnapshot = final
        }
        #expect(result.passed)
        #expect(result.expected == "all 3 records of before-fault")
        #expect(result.observed == "all 3 records present")
        #expect(result.detail == nil)
    }

    @Test func preservedCheckpointDetectsAMissingRecord() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = Self.beforeFault
            var final = Self.beforeFault
            final["favorites"]?["favorites:2"] = nil
            $0.finalSnapshot = final
        }
        #expect(!result.passed)
        #expect(result.observed == "1 missing, 0 changed of 3")
        #expect(result.detail == "missing: favorites:2")
    }

    @Test func preservedCheckpointDetectsAChangedRow() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = Self.beforeFault
            var final = Self.beforeFault
            final["notes"]?["notes:1"] = "[id:1 text:\"\"]"
            $0.finalSnapshot = final
        }
        #expect(!result.passed)
        #expect(result.observed == "0 missing, 1 changed of 3")
        #expect(result.detail == "changed: notes:1")
    }

    @Test func preservedCheckpointCountsAMissingTableAsMissingRecords() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = Self.beforeFault
            $0.finalSnapshot = ["notes": Self.beforeFault["notes"]!]
        }
        #expect(!result.passed)
        #expect(result.observed == "2 missing, 0 changed of 3")
        #expect(result.detail == "missing: favorites:1, favorites:2")
    }

    @Test func preservedCheckpointListsAtMostEightMissingKeys() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = ["favorites": Dictionary(uniqueKeysWithValues: (1...10).map { ("favorites:\($0)", "row") })]
            $0.finalSnapshot = ["favorites": [:]]
        }
        #expect(result.observed == "10 missing, 0 changed of 10")
        #expect(result.detail?.hasSuffix(" …") == true)
    }

    @Test func preservedFailsWhenTheCheckpointWasNeverTaken() {
        let result = evaluate(.preserved("before-fault")) {
            $0.finalSnapshot = Self.beforeFault
            $0.evidenceGap = MissingEvidence(text: Self.gap)
        }
        #expect(!result.passed)
        #expect(result.observed == "checkpoint before-fault was never taken")
        #expect(result.detail == Self.gap)
    }

    @Test func preservedCheckpointFailsWithoutAFinalSnapshot() {
        let result = evaluate(.preserved("before-fault")) {
            $0.checkpoints["before-fault"] = Self.beforeFault
            $0.evidenceGap = MissingEvidence(text: Self.gap)
        }
        #expect(!result.passed)
        #expect(result.observed == "no final snapshot")
        #expect(result.detail == Self.gap)
    }

    // MARK: preserved: acknowledged

    @Test func preservedAcknowledgedPassesWhenEveryAcknowledgedWriteIsPresent() {
        let result = evaluate(.preserved(Chaos.Expectation.acknowledged)) {
            $0.attempted = ["favorites:1", "favorites:2", "favorites:3"]
            $0.acknowledged = ["favorites:1", "favorites:2"]
            $0.finalSnapshot = ["favorites": ["favorites:1": "a", "favorites:2": "b", "favorites:3": "c"]]
        }
        #expect(result.passed)
        #expect(result.expected == "2 acknowledged, 0 lost, 0 unexpected")
        #expect(result.observed == "2 acknowledged, 0 lost, 0 unexpected, 1 recovered")
    }

    @Test func preservedAcknowledgedFailsNamingTheLostRecords() {
        let result = evaluate(.preserved(Chaos.Expectation.acknowledged)) {
            $0.attempted = ["favorites:1", "favorites:2"]
            $0.acknowledged = ["favorites:1", "favorites:2"]
            $0.finalSnapshot = ["favorites": ["favorites:1": "a"]]
        }
        #expect(!result.passed)
        #expect(result.observed == "2 acknowledged, 1 lost, 0 unexpected, 0 recovered; lost: favorites:2")
    }

    @Test func preservedAcknowledgedFailsWithTheEvidenceGapWithoutAFinalSnapshot() {
        let result = evaluate(.preserved(Chaos.Expectation.acknowledged)) {
            $0.acknowledged = ["favorites:1"]
            $0.evidenceGap = MissingEvidence(text: Self.gap)
        }
        #expect(!result.passed)
        #expect(result.observed == "no final snapshot")
        #expect(result.detail == Self.gap)
    }

    // MARK: surfaced

    @Test func surfacedWarningPassesWithAPlainMessage() {
        let message = "We found a problem with your saved data and restored it from your most recent backup. "
            + "Changes made after that backup may be missing."
        let result = evaluate(.surfaced(.warning), surfacedEvidence("warning", message))
        #expect(result.passed)
        #expect(result.expected == "warning")
        #expect(result.observed == "warning: \"\(message)\"")
    }

    @Test func surfacedErrorPassesWithAPlainMessage() {
        let result = evaluate(.surfaced(.error), surfacedEvidence("error", "Unable to load favorites. Please try again."))
        #expect(result.passed)
    }

    @Test func surfacedFailsOnAnotherSeverityNamingWhatWasShown() {
        let result = evaluate(.surfaced(.warning), surfacedEvidence("error", "Unable to load favorites. Please try again."))
        #expect(!result.passed)
        #expect(result.expected == "warning")
        #expect(result.observed == "error: \"Unable to load favorites. Please try again.\"")
    }

    @Test func surfacedNonePassesWithSeverityNoneAndNoMessage() {
        let result = evaluate(.surfaced(.none), surfacedEvidence("none", nil))
        #expect(result.passed)
        #expect(result.observed == "none")
    }

    @Test func surfacedNoneTakesAMissingSeverityAsNone() {
        let result = evaluate(.surfaced(.none)) { $0.surfaced = [:] }
        #expect(result.passed)
    }

    @Test func surfacedNoneFailsWhenTheUserWasShownAnError() {
        let result = evaluate(.surfaced(.none), surfacedEvidence("error", "Failed to save changes. Please try again."))
        #expect(!result.passed)
        #expect(result.observed == "error: \"Failed to save changes. Please try again.\"")
    }

    @Test(arguments: [
        "Failed to save: SQLITE_FULL",
        "Could not load Optional(\"favorites\")",
        "The value was nil",
        "Storage failed with error 13",
    ])
    func surfacedFailsOnJargonEvenWhenTheSeverityMatches(message: String) {
        let result = evaluate(.surfaced(.error), surfacedEvidence("error", message))
        #expect(!result.passed)
        #expect(result.expected == "error, in plain words")
        #expect(result.detail?.hasPrefix("contains ") == true)
    }

    @Test
    func surfacedFailsOnASwiftTypeNameEvenWhenTheSeverityMatches() {
        let result = evaluate(.surfaced(.error), surfacedEvidence("error", "The operation failed (DatabaseError)."))
        #expect(!result.passed)
        #expect(result.detail?.contains("a type name") == true)
    }

    @Test(arguments: [SurfaceLevel.error, .warning])
    func surfacedFailsOnAnEmptyMessage(level: SurfaceLevel) {
        let empty = evaluate(.surfaced(level), surfacedEvidence(level.rawValue, ""))
        let absent = evaluate(.surfaced(level), surfacedEvidence(level.rawValue, nil))
        #expect(!empty.passed)
        #expect(empty.detail == "the message is empty")
        #expect(!absent.passed)
        #expect(absent.detail == "the message is empty")
    }

    @Test func surfacedFailsWithTheEvidenceGapWhenNothingWasReported() {
        let result = evaluate(.surfaced(.warning)) { $0.evidenceGap = MissingEvidence(text: Self.gap) }
        #expect(!result.passed)
        #expect(result.observed == "nothing reported")
        #expect(result.detail == Self.gap)
    }

    // MARK: state

    @Test func statePassesWhenTheProbeAnswersTheValue() {
        let result = evaluate(.state(probe: "favorites.count", equals: .int(25))) { $0.probes["favorites.count"] = .int(25) }
        #expect(result.passed)
        #expect(result.expected == "favorites.count = 25")
        #expect(result.observed == "favorites.count = 25")
    }

    @Test func stateFailsNamingTheAnsweredValue() {
        let result = evaluate(.state(probe: "favorites.count", equals: .int(25))) { $0.probes["favorites.count"] = .int(0) }
        #expect(!result.passed)
        #expect(result.observed == "favorites.count = 0")
    }

    @Test func stateFailsWithTheEvidenceGapWhenTheProbeWasNotAnswered() {
        let result = evaluate(.state(probe: "favorites.state", equals: .string("loaded"))) { $0.evidenceGap = MissingEvidence(text: Self.gap) }
        #expect(!result.passed)
        #expect(result.observed == "not answered")
        #expect(result.detail == Self.gap)
    }

    // MARK: integrity

    @Test func integrityPassesWhenTheCheckRanClean() {
        let result = evaluate(.integrity) { $0.integrityChecked = true }
        #expect(result.passed)
        #expect(result.observed == "ok")
    }

    @Test func integrityFailsNamingWhatTheCheckFound() {
        let problem = "*** in database main ***\nPage 3: btreeInitPage() returns error code 11"
        let result = evaluate(.integrity) {
            $0.integrityChecked = true
            $0.integrityProblem = problem
        }
        #expect(!result.passed)
        #expect(result.expected == "integrity_check ok")
        #expect(result.observed == problem)
    }

    @Test func integrityFailsWithTheEvidenceGapWhenNotChecked() {
        let result = evaluate(.integrity) { $0.evidenceGap = MissingEvidence(text: Self.gap) }
        #expect(!result.passed)
        #expect(result.observed == "not checked")
        #expect(result.detail == Self.gap)
    }
}
