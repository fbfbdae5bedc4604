import ChaosTarget

/// Joins the reports of several shards (`chaos report merge`) into one: the cases of
/// all, in scenario order; the summary counted anew; the run's fields from the first.
package enum ReportMerge {
    package static func merge(_ reports: [RunReport]) -> RunReport? {
        guard var merged = reports.first else { return nil }
        let cases = reports.flatMap(\.cases).sorted { ($0.scenario, $0.variant, $0.seed) < ($1.scenario, $1.variant, $1.seed) }
        let durationMs = reports.map(\.summary.durationMs).max() ?? 0
        merged.cases = cases
        merged.summary = RunSummary(cases: cases, durationMs: durationMs)
        merged.run.command = reports.map(\.run.command).joined(separator: " + ")
        return merged
    }
}
