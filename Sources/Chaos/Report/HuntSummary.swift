import ChaosTarget

/// What a hunt (`chaos hunt`) did, in its report beside its findings' cases: the
/// schedules it ran, how many of them a fault bit, how many failed, and each distinct
/// failure shrunk to a scenario file. Shards (`--shard I/N`) merge into the whole hunt:
/// counts add up, and each failure keeps the finding of the first schedule (by index)
/// that failed that way — the one an unsharded hunt shrinks.
package struct HuntSummary: Codable, Sendable, Equatable {
    package var seed: UInt64
    package var schedules: Int
    /// Schedules in which at least one fault fired (or the power went out).
    package var bitten: Int
    /// Schedules with faults none of which fired: they count as no evidence.
    package var idle: Int
    package var failedSchedules: Int
    /// Schedules Chaos itself could not run (a harness error), with the first's reason.
    package var errored: Int
    @ExplicitNull package var firstError: String?
    /// The fault points the plain first run saw the app's code hit.
    package var points: [String]
    package var findings: [HuntFinding]
    /// `I/N` for a shard, nil for a whole hunt (or shards merged).
    @ExplicitNull package var shard: String?
    /// How schedules were chosen: `guided` or `random` (nil in a report of an older Chaos).
    @ExplicitNull package var strategy: String?
    /// A guided hunt's corpus: the schedules that reached something no earlier one had.
    @ExplicitNull package var corpus: Int?
    /// Milliseconds from the hunt's start to when its first failing schedule was read
    /// (of shards merged, the soonest); nil when no schedule failed.
    @ExplicitNull package var firstFailureMs: Int?

    package init(seed: UInt64, schedules: Int, bitten: Int, idle: Int, failedSchedules: Int, errored: Int, firstError: String?,
                 points: [String], findings: [HuntFinding], shard: String?, strategy: String? = nil, corpus: Int? = nil,
                 firstFailureMs: Int? = nil) {
        self.seed = seed
        self.schedules = schedules
        self.bitten = bitten
        self.idle = idle
        self.failedSchedules = failedSchedules
        self.errored = errored
        self.firstError = firstError
        self.points = points
        self.findings = findings
        self.shard = shard
        self.strategy = strategy
        self.corpus = corpus
        self.firstFailureMs = firstFailureMs
    }

    /// The shards of one hunt as one. Hunts of different seeds do not add up.
    package static func merged(_ parts: [HuntSummary]) throws(ReportMerge.Refusal) -> HuntSummary? {
        guard var merged = parts.first else { return nil }
        var bySignature: [String: HuntFinding] = [:]
        for finding in merged.findings { bySignature[finding.failure] = finding }
        for part in parts.dropFirst() {
            guard part.seed == merged.seed else {
                throw ReportMerge.Refusal(description: "the hunts have different seeds (\(merged.seed), \(part.seed)): merge the shards of one hunt")
            }
            merged.schedules += part.schedules
            merged.bitten += part.bitten
            merged.idle += part.idle
            merged.failedSchedules += part.failedSchedules
            merged.errored += part.errored
            merged.firstError = merged.firstError ?? part.firstError
            merged.points = Array(Set(merged.points + part.points)).sorted()
            merged.firstFailureMs = [merged.firstFailureMs, part.firstFailureMs].compactMap { $0 }.min()
            for finding in part.findings {
                guard var kept = bySignature[finding.failure] else { bySignature[finding.failure] = finding; continue }
                let failing = kept.failingSchedules + finding.failingSchedules
                if finding.schedule < kept.schedule { kept = finding }
                kept.failingSchedules = failing
                bySignature[finding.failure] = kept
            }
        }
        merged.findings = bySignature.values.sorted { $0.schedule < $1.schedule }
        merged.shard = nil
        return merged
    }
}

/// One distinct failure a hunt found, shrunk: the scenario file it wrote, and how.
package struct HuntFinding: Codable, Sendable, Equatable {
    /// The scenario's name (its file's base name): `trap-fragile-store-18`.
    package var name: String
    /// The scenario file, as the reproduce line names it.
    package var file: String
    /// How it fails: `trap at LegacyStore.swift:18`, `no-silent-loss`.
    package var failure: String
    /// The first schedule (by index) that failed this way: the one shrunk.
    package var schedule: Int
    /// How many schedules failed this way.
    package var failingSchedules: Int
    package var stepsBefore: Int
    package var stepsAfter: Int
    /// Cases run to shrink it, and how long that took: from its first schedule to the
    /// shrunk one (its rate and its shrink; a hang's run at the case's full timeout goes
    /// on beside them).
    package var shrinkRuns: Int
    package var shrinkMs: Int
    /// A bound (runs, the budget) stopped the shrinking before no smaller schedule failed.
    package var cutShort: Bool
    /// The file, run as it is, failed the same way.
    package var reproduced: Bool
    package var reproduce: String
    /// The file's text (what `chaos report merge` writes beside the merged report).
    package var yaml: String
    /// Cut short: the steps of the schedule left whose removal was never tried
    /// (`chaos hunt --shrink FILE` goes on from there); nil when shrinking finished.
    @ExplicitNull package var untriedSteps: Int?
    /// How often the file failed as the hunt saw, run again: `reproducedRuns` of `reproduceTries`.
    @ExplicitNull package var reproducedRuns: Int?
    @ExplicitNull package var reproduceTries: Int?
    /// It did not fail every time, before shrinking or from its file: it depends on timing.
    @ExplicitNull package var flaky: Bool?
    /// What happened, in one paragraph built from the evidence: what the fault did, what
    /// the app answered, what was lost or how long it waited.
    @ExplicitNull package var explanation: String?
    /// The launches and actions the failure struck, over every schedule that showed it.
    @ExplicitNull package var struck: [String]?
    /// How long its written file took to run again as a user runs it, after `shrinkMs`:
    /// a hang's at the case's full timeout (20 s). Nil in a report of an older Chaos.
    @ExplicitNull package var confirmMs: Int?

    /// `5 of 5 runs`, `2 of 5 runs (flaky)`; nil for a report of an older Chaos.
    package var rateText: String? {
        guard let failed = reproducedRuns, let tries = reproduceTries else { return nil }
        return "\(failed) of \(tries) run\(tries == 1 ? "" : "s")" + (flaky == true ? " (flaky)" : "")
    }
}
