import ChaosTarget

/// The last stage of a case: from how it ended, what the expectations found and what
/// each fault did, its verdict. Nothing here runs anything: the case has been run and
/// its evidence gathered, and the same inputs always give the same verdict.
struct CaseJudgement: Equatable {
    var verdict: Verdict
    var expectations: [ExpectationResult] = []
    var error: String?

    /// `results` are asked only when the case ran to a judgeable end (not interrupted,
    /// not a harness failure, not a case that does not apply).
    static func judge(ending: CaseEnd?, results: () -> [ExpectationResult], needsFinalSnapshot: Bool,
                      evidence: CaseEvidence, faults: [FaultActivity]) -> CaseJudgement {
        switch ending {
        case .interrupted?: return CaseJudgement(verdict: .interrupted, error: "interrupted before the case finished")
        case let .harness(reason)?: return CaseJudgement(verdict: .errored, error: reason)
        case let .notApplicable(reason)?: return CaseJudgement(verdict: .skipped, error: "does not apply: \(reason)")
        default: break
        }
        let results = results()
        // Evidence the harness failed to gather is not data lost: the case proves nothing
        // — unless the app failed an expectation that stands without it (a store it
        // keeps using though SQLite calls it malformed, no successful read): deviated.
        let standing = results.filter { !$0.passed && !$0.lacksFinalSnapshot }
        if ending == nil, needsFinalSnapshot, evidence.finalSnapshot == nil, standing.isEmpty {
            return CaseJudgement(verdict: .errored, expectations: results,
                                 error: "no final snapshot to judge the data by: \(evidence.evidenceGap?.text ?? "not taken")")
        }
        // Passing proves something only if every fault reached what the app reads.
        let idle = faults.filter { $0.hadEffect == false && $0.id != TrialPlan.faultID }
        // The app's files went elsewhere, and no fault reached it (or it made no call under
        // its data folder at all): what the expectations saw is not the faults' doing, and
        // the data judged may not be the app's. Said, never a deviation, never a pass.
        let caseFaults = faults.filter { $0.id != TrialPlan.faultID }
        if ending == nil, !caseFaults.isEmpty, let elsewhere = FilesElsewhere.sentence(evidence.filesElsewhere),
           idle.count == caseFaults.count || evidence.callsUnderDataFolder == 0 {
            let why = idle.count == caseFaults.count ? "no fault had an effect" : "the app made no file call under its data folder"
            return CaseJudgement(verdict: .inconclusive, expectations: results, error: "\(why): \(elsewhere)")
        }
        guard results.allSatisfy(\.passed) else { return CaseJudgement(verdict: .deviated, expectations: results) }
        guard idle.isEmpty else {
            let reasons = idle.map { "\($0.id.replacingOccurrences(of: "-", with: " ")) '\($0.label)' had \($0.effect ?? "no effect")" }
            return CaseJudgement(verdict: .inconclusive, expectations: results, error: reasons.joined(separator: "; "))
        }
        return CaseJudgement(verdict: .passed, expectations: results)
    }
}
