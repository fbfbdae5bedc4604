import ChaosTarget

/// Compares a run with an earlier one (`--baseline PREVIOUS.json`): each failure is
/// `new` or `known`, and each case that failed before and passes now is `fixed`.
package enum Baseline {
    package static func mark(_ report: inout RunReport, against previous: RunReport) {
        let before = Dictionary(previous.cases.map { ($0.scenario, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        for index in report.cases.indices {
            let now = report.cases[index].verdict
            let then = before[report.cases[index].scenario]
            let failedThen = then.map { [.deviated, .inconclusive, .errored].contains($0) } ?? false
            switch now {
            case .deviated, .inconclusive, .errored:
                report.cases[index].baseline = failedThen ? "known" : "new"
            case .passed:
                report.cases[index].baseline = failedThen ? "fixed" : nil
            case .skipped, .interrupted:
                report.cases[index].baseline = nil
            }
        }
    }
}
