import ChaosTarget

/// How a sweep counts its failed trials: by what failed in each, in the words of the summary.
enum SweepTally {
    /// What failed in a trial.
    static func kinds(of report: CaseReport) -> [String] {
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
            case "preserved" where failed.lacksFinalSnapshot, "no-silent-loss" where failed.lacksFinalSnapshot: break
            case "preserved":
                switch failed.records {
                case let counts? where counts.lost > 0: kinds.append("lost acknowledged writes")
                case let counts? where counts.corrupted > 0: kinds.append("corrupted acknowledged writes")
                case .some: kinds.append("unexpected records")
                case nil: kinds.append("lost acknowledged writes")
                }
            case "no-silent-loss":
                kinds.append(failed.records.map { $0.lost == 0 && $0.corrupted > 0 } == true ? "silent corruption" : "silent data loss")
            case "responsive-within", "recovered-within": kinds.append("slow answers")
            default: break
            }
        }
        return kinds.isEmpty ? ["other"] : Array(Set(kinds)).sorted()
    }
}
