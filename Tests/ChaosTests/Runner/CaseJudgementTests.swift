import Testing

@testable import Chaos

/// The verdict from a case's end, its expectations and its faults: every branch, each
/// of which a case can land in.
@Suite struct CaseJudgementTests {
    static let kept = ExpectationResult(kind: "preserved", label: "preserved: acknowledged", passed: true, expected: "all", observed: "all")
    static let lost = ExpectationResult(kind: "preserved", label: "preserved: acknowledged", passed: false, expected: "all", observed: "1 lost")
    static let noSnapshot = {
        var result = ExpectationResult(kind: "preserved", label: "preserved: acknowledged", passed: false, expected: "all",
                                       observed: ExpectationResult.noFinalSnapshot)
        result.gap = EvidenceGap(finalSnapshot: true)
        return result
    }()

    func judge(_ ending: CaseEnd?, _ results: [ExpectationResult], snapshot: Bool = true,
               faults: [FaultActivity] = []) -> CaseJudgement {
        var evidence = CaseEvidence()
        if snapshot { evidence.finalSnapshot = [:] } else { evidence.evidenceGap = MissingEvidence(text: "the app could not read its data") }
        return CaseJudgement.judge(ending: ending, results: { results }, needsFinalSnapshot: true, evidence: evidence, faults: faults)
    }

    func fault(effect: Bool?) -> FaultActivity {
        var activity = FaultActivity(id: "step-2", step: 2, kind: "io-error", label: "io-error on write")
        activity.hadEffect = effect
        activity.effect = effect == false ? "no effect: no operation it fails happened" : "fired on 1 of 1"
        return activity
    }

    @Test func endsThatProveNothingAreNotJudged() {
        var asked = false
        let results = { asked = true; return [Self.lost] }
        #expect(CaseJudgement.judge(ending: .interrupted, results: results, needsFinalSnapshot: true, evidence: CaseEvidence(), faults: []).verdict == .interrupted)
        #expect(CaseJudgement.judge(ending: .harness("spawn failed"), results: results, needsFinalSnapshot: true, evidence: CaseEvidence(),
                                    faults: []) == CaseJudgement(verdict: .errored, error: "spawn failed"))
        #expect(CaseJudgement.judge(ending: .notApplicable("no wal"), results: results, needsFinalSnapshot: true, evidence: CaseEvidence(),
                                    faults: []).error == "does not apply: no wal")
        #expect(!asked, "no expectation is judged on a case that did not run to its end")
    }

    @Test func keptDataWithEveryFaultAtWorkPasses() {
        #expect(judge(nil, [Self.kept], faults: [fault(effect: true)]).verdict == .passed)
    }

    @Test func aFailedExpectationDeviatesWhateverEndedTheCase() {
        #expect(judge(nil, [Self.kept, Self.lost]).verdict == .deviated)
        #expect(judge(.trapped, [Self.lost]).verdict == .deviated)
    }

    @Test func aPassThatNoFaultReachedIsInconclusiveAndSaysWhy() {
        let judgement = judge(nil, [Self.kept], faults: [fault(effect: false)])
        #expect(judgement.verdict == .inconclusive)
        #expect(judgement.error == "step 2 'io-error on write' had no effect: no operation it fails happened")
    }

    @Test func noSnapshotIsAHarnessGapUnlessAnotherExpectationFailed() {
        let gap = judge(nil, [Self.noSnapshot], snapshot: false)
        #expect(gap.verdict == .errored)
        #expect(gap.error == "no final snapshot to judge the data by: the app could not read its data")
        let lost = ExpectationResult(kind: "recovered-within", label: "recovered-within: 5s", passed: false, expected: "≤ 5 s", observed: "not recovered")
        #expect(judge(nil, [Self.noSnapshot, lost], snapshot: false).verdict == .deviated)
    }
}
