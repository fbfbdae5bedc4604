import ChaosTarget

/// Joins the reports of several shards (`chaos report merge`) into one: the cases of
/// all, in scenario order; the summary counted anew; the run's fields from the first.
///
/// Shards of one gate share a variant and a target and split the cases between them:
/// a merge of runs on different variants or targets, or holding the same case twice
/// (two runs of one shard), would count what no single run measured, and is refused.
package enum ReportMerge {
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    package static func merge(_ reports: [RunReport]) throws(Refusal) -> RunReport {
        guard var merged = reports.first else { throw Refusal(description: "nothing to merge") }
        let variants = Set(reports.map(\.run.variant))
        guard variants.count == 1 else {
            throw Refusal(description: "the reports are of different variants (\(variants.sorted().joined(separator: ", "))): merge the shards of one run")
        }
        let targets = Set(reports.map(\.run.target))
        guard targets.count == 1 else {
            throw Refusal(description: "the reports are of different targets (\(targets.sorted().joined(separator: ", "))): merge the shards of one run")
        }
        let hunts = reports.compactMap(\.hunt)
        guard hunts.isEmpty || hunts.count == reports.count else {
            throw Refusal(description: "some reports are hunts (chaos hunt) and some are not: merge reports of one kind")
        }
        if !hunts.isEmpty { return try mergeHunts(reports, merged) }
        var seen: [String: Int] = [:]
        for (index, report) in reports.enumerated() {
            for item in report.cases {
                // A case is what reproduces it: scenario, seed, variant, options, target, trial.
                let key = item.reproduce
                if let earlier = seen[key], earlier != index {
                    throw Refusal(description: "\(key) is in report \(earlier + 1) and report \(index + 1): each case belongs to one shard")
                }
                seen[key] = index
            }
        }
        let cases = reports.flatMap(\.cases).sorted { ($0.scenario, $0.variant, $0.seed) < ($1.scenario, $1.variant, $1.seed) }
        let durationMs = reports.map(\.summary.durationMs).max() ?? 0
        merged.cases = cases
        merged.summary = RunSummary(cases: cases, durationMs: durationMs)
        merged.run.command = reports.map(\.run.command).joined(separator: " + ")
        let sweeps = reports.compactMap(\.sweep)
        guard sweeps.isEmpty || sweeps.count == reports.count else {
            throw Refusal(description: "some reports are sweeps (chaos explore) and some are runs: merge reports of one kind")
        }
        merged.sweep = try SweepSummary.merged(sweeps)
        return merged
    }

    /// The shards of one hunt: each failure once, as the first schedule that failed that
    /// way found it (``HuntSummary/merged(_:)``), with that shard's case of it.
    private static func mergeHunts(_ reports: [RunReport], _ first: RunReport) throws(Refusal) -> RunReport {
        var merged = first
        guard let hunt = try HuntSummary.merged(reports.compactMap(\.hunt)) else { throw Refusal(description: "nothing to merge") }
        let cases = hunt.findings.compactMap { finding in
            reports.first { report in
                report.hunt?.findings.contains { $0.failure == finding.failure && $0.schedule == finding.schedule } ?? false
            }?.cases.first { $0.scenario == finding.name }
        }
        merged.hunt = hunt
        merged.cases = cases
        merged.summary = RunSummary(cases: cases, durationMs: reports.map(\.summary.durationMs).max() ?? 0)
        merged.run.command = reports.map(\.run.command).joined(separator: " + ")
        return merged
    }
}
