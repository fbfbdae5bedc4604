import ChaosTarget
import Foundation

/// Reduces a failing schedule to one no smaller edit of which fails the same way: runs
/// of steps dropped (halves, then quarters, down to single steps), then each step made
/// simpler (an argument or a trigger key dropped, a number lowered, a kill or a power
/// cut made a stop, a cut at a later write made a cut now, a clear of one kind made a
/// clear of all). Every candidate is run; the first, in that fixed order, that fails with
/// the same ``HuntOracle/Failure`` is kept and the search starts again from it. Candidates
/// are tried `jobs` at a time, but the one kept is always the first in order, so the
/// result does not depend on `jobs`: QuickCheck's and Hypothesis's greedy shrinking,
/// with delta debugging's chunks first.
struct HuntShrinker {
    /// Runs candidates (several at once), giving each one's report, or nil for one the
    /// scenario format refuses.
    var evaluate: ([HuntSchedule]) -> [CaseReport?]
    var jobs: Int
    /// Stop shrinking (keeping the smallest so far) past this many runs or this instant.
    var maxRuns = 200
    var deadline: ContinuousClock.Instant

    struct Outcome {
        var schedule: HuntSchedule
        var report: CaseReport
        var runs: Int
        /// True when a bound stopped it before no smaller candidate failed.
        var cutShort: Bool
    }

    func shrink(_ start: HuntSchedule, report: CaseReport, failure: HuntOracle.Failure) -> Outcome {
        var best = Outcome(schedule: start, report: report, runs: 0, cutShort: false)
        while true {
            let candidates = Self.candidates(of: best.schedule).filter { $0.isWellFormed(for: failure) }
            var accepted = false
            var offset = 0
            while offset < candidates.count {
                guard best.runs < maxRuns, ContinuousClock.now < deadline, !RunInterruption.requested else {
                    best.cutShort = true
                    return best
                }
                let batch = Array(candidates[offset..<min(candidates.count, offset + max(1, jobs))])
                offset += batch.count
                let reports = evaluate(batch)
                best.runs += reports.filter { $0 != nil }.count
                if let index = reports.firstIndex(where: { $0.flatMap(HuntOracle.failure(of:)) == failure }), let kept = reports[index] {
                    best.schedule = batch[index]
                    best.report = kept
                    accepted = true
                    break
                }
            }
            if !accepted { return best }
        }
    }

    /// Every smaller or simpler schedule one edit away, smallest first.
    static func candidates(of schedule: HuntSchedule) -> [HuntSchedule] {
        var result: [HuntSchedule] = []
        func with(_ steps: [HuntStep]) {
            guard !steps.isEmpty, steps != schedule.steps else { return }
            var candidate = schedule
            candidate.steps = steps
            if !result.contains(candidate) { result.append(candidate) }
        }
        let steps = schedule.steps
        var chunk = max(1, steps.count / 2)
        while true {
            var start = 0
            while start < steps.count {
                with(Array(steps[..<start] + steps[min(steps.count, start + chunk)...]))
                start += chunk
            }
            if chunk == 1 { break }
            chunk = max(1, chunk / 2)
        }
        for (index, step) in steps.enumerated() {
            for simpler in simpler(step) {
                var edited = steps
                edited[index] = simpler
                with(edited)
            }
        }
        return result
    }

    /// The simpler forms of one step, simplest first.
    static func simpler(_ step: HuntStep) -> [HuntStep] {
        switch step {
        case .launch, .stop: return []
        case .kill: return [.stop]
        case let .powerLoss(mode, moment):
            var forms: [HuntStep] = [.stop]
            if moment != nil { forms.append(.powerLoss(mode, nil)) }
            if mode != "drop" { forms.append(.powerLoss("drop", moment)) }
            return forms
        case let .clear(scope): return scope == "all" ? [] : [.clear("all")]
        case let .action(name, arguments): return simpler(arguments).map { .action(name, $0) }
        case let .fault(kind, keys):
            // A damage's size is what it is: fewer flipped bytes is another damage, not a simpler one.
            let forms = simpler(keys, lowering: kind != "corrupt-file").map { HuntStep.fault(kind, $0) }
            guard HuntGenerator.countedKinds.contains(kind) else { return forms }
            return forms.filter { if case let .fault(_, kept) = $0 { kept.contains { $0.key == "times" } } else { true } }
        }
    }

    /// Keys with one dropped, or one number lowered to 1 (or 0 for a count of bytes).
    static func simpler(_ keys: [HuntKey], lowering: Bool = true) -> [[HuntKey]] {
        var forms: [[HuntKey]] = []
        for index in keys.indices {
            var dropped = keys
            dropped.remove(at: index)
            forms.append(dropped)
        }
        for (index, key) in keys.enumerated() where lowering {
            guard case let .int(number) = key.value else { continue }
            let lowest = key.key.contains("bytes") ? 0 : 1
            guard number > lowest else { continue }
            var lowered = keys
            lowered[index].value = .int(lowest)
            forms.append(lowered)
        }
        return forms
    }
}
