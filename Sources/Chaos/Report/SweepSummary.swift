import ChaosTarget

/// What a sweep (`chaos explore`) covered, in its report beside the failed trials: the
/// trials it ran, the points (I/O operations, crash points) it covered out of those it
/// had, the trials whose fault never fired, the failures by kind. A shard (`--shard
/// I/N`) covers its share of the points; merged, the shards add up to one whole sweep.
package struct SweepSummary: Codable, Sendable, Equatable {
    /// `io` or `crash`.
    package var kind: String
    package var scenario: String
    package var trials: Int
    /// The points there were to cover (this shard's share), nil when not known.
    @ExplicitNull package var pointsTotal: Int?
    package var pointsCovered: Int
    package var idleTrials: Int
    /// Failed trials by what failed: `trap`, `lost acknowledged writes`, `integrity`…
    package var failures: [String: Int]
    /// `I/N` for a shard, nil for a whole sweep (or shards merged).
    @ExplicitNull package var shard: String?
    /// A crash sweep's trials judged from an image of their cut, and the launches of the
    /// app on images (docs/ARCHITECTURE.md, "Crash trials from images"); nil when its
    /// trials all ran whole. Absent from reports written before it was.
    package var fromImages: FromImages?

    package struct FromImages: Codable, Sendable, Equatable {
        package var trials: Int
        package var launches: Int
    }

    package init(kind: String, scenario: String, trials: Int, pointsTotal: Int?, pointsCovered: Int, idleTrials: Int,
                 failures: [String: Int], shard: String?) {
        self.kind = kind
        self.scenario = scenario
        self.trials = trials
        self.pointsTotal = pointsTotal
        self.pointsCovered = pointsCovered
        self.idleTrials = idleTrials
        self.failures = failures
        self.shard = shard
    }

    /// The shards of one sweep as one: counts added up. Sweeps of another scenario or
    /// kind do not add up, and are refused.
    package static func merged(_ parts: [SweepSummary]) throws(ReportMerge.Refusal) -> SweepSummary? {
        guard var merged = parts.first else { return nil }
        for part in parts.dropFirst() {
            guard part.kind == merged.kind, part.scenario == merged.scenario else {
                throw ReportMerge.Refusal(description: "the sweeps differ (\(merged.kind) of \(merged.scenario), \(part.kind) of \(part.scenario)): merge the shards of one sweep")
            }
            merged.trials += part.trials
            merged.pointsTotal = zip(merged.pointsTotal, part.pointsTotal).map { $0 + $1 }
            merged.pointsCovered += part.pointsCovered
            merged.idleTrials += part.idleTrials
            merged.failures.merge(part.failures, uniquingKeysWith: +)
            if let images = part.fromImages {
                let sum = merged.fromImages ?? FromImages(trials: 0, launches: 0)
                merged.fromImages = FromImages(trials: sum.trials + images.trials, launches: sum.launches + images.launches)
            }
        }
        merged.shard = nil
        return merged
    }
}

private func zip(_ left: Int?, _ right: Int?) -> (Int, Int)? {
    guard let left, let right else { return nil }
    return (left, right)
}
