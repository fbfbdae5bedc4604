import ChaosTarget

extension Sweeper {
    /// What failed in a trial, in the words of the summary.
    static func failureKinds(_ report: CaseReport) -> [String] {
        if report.verdict == .errored { return ["errored"] }
        if report.verdict == .interrupted { return ["interrupted"] }
        var kinds: [String] = []
        if report.trap != nil { kinds.append("trap") }
        // What the app's end kept from being judged is counted under the trap or the hang.
        for failed in report.expectations where !failed.passed && !failed.wasNotReached {
            switch failed.kind {
            case "no-trap" where report.trap == nil: kinds.append("hang or unexpected exit")
            case "integrity": kinds.append("integrity")
            // After a trap or a hang there is no data to judge: the trap is the finding.
            case "preserved" where failed.observed == "no final snapshot",
                 "no-silent-loss" where failed.observed == "no final snapshot": break
            case "preserved": kinds.append(failed.observed.contains("acknowledged, 0 lost") ? "unexpected records" : "lost acknowledged writes")
            case "no-silent-loss": kinds.append("silent data loss")
            case "responsive-within", "recovered-within": kinds.append("slow answers")
            default: break
            }
        }
        return kinds.isEmpty ? ["other"] : Array(Set(kinds)).sorted()
    }
}
