import ChaosTarget
import FaultPoints

/// How a hunt chooses its schedules: `guided` (the default) mutates the schedules that
/// reached something new; `random` draws each one fresh, as every hunt did before, and
/// is what a guided hunt is measured against (and what shards run).
package enum HuntStrategy: String, CaseIterable, Sendable {
    case guided, random
}

/// A guided hunt's schedules: most are mutations of its corpus (``HuntMutator``), the
/// entries picked by their energy (``HuntCorpus``); a quarter are fresh, as a random
/// hunt draws them, so the search never stays only near what it found first.
///
/// Schedules are generated in batches of ``batchSize``, each from the corpus as it stood
/// once every schedule of the batch before had been read, and every draw comes from the
/// hunt's seed and the schedule's index: the corpus grows in the same order whatever
/// `-j`, and the same seed and `--schedules N` give the same schedules, hence the same
/// findings. A batch of 16 lets `-j` up to 8 keep its jobs busy (a pool waits for a
/// batch's last schedule before the next begins) while the corpus still steers the
/// hunt from its 17th schedule on.
struct HuntGuide {
    static let batchSize = 16
    /// Fresh schedules among those generated, in percent.
    static let freshPercent = 25
    /// Splices among the mutations, in percent (with two entries or more).
    static let splicePercent = 15
    /// Draws of a mutation before a fresh schedule is written instead.
    static let attempts = 8

    let mutator: HuntMutator
    private(set) var corpus = HuntCorpus()
    /// Whether a schedule would run: the scenario format and the target take it. One
    /// they refuse is never run; the next draw is tried.
    let accepts: (HuntSchedule) -> Bool
    /// The batch being run: each schedule by its index, with the corpus entries it came from.
    private var batch: [Int: (schedule: HuntSchedule, parents: [Int])] = [:]

    init(generator: HuntGenerator, accepts: @escaping (HuntSchedule) -> Bool) {
        mutator = HuntMutator(generator: generator)
        self.accepts = accepts
    }

    /// Schedule `index`: its batch is generated when its first schedule is asked for.
    mutating func schedule(_ index: Int) -> HuntSchedule {
        if batch[index] == nil {
            let first = index - index % Self.batchSize
            batch = [:]
            for planned in first..<(first + Self.batchSize) { batch[planned] = plan(planned) }
        }
        return batch[index]?.schedule ?? mutator.generator.schedule(index)
    }

    /// Notes what a schedule of the batch reached: it joins the corpus when that is new.
    mutating func note(_ schedule: HuntSchedule, _ report: CaseReport) {
        let parents = batch[schedule.index]?.parents ?? []
        let joined = corpus.admit(schedule, RunSignature(report: report, steps: schedule.steps, files: mutator.generator.surface.filePaths),
                                  parents: parents)
        HuntRunner.debug("guided \(schedule.index): \(schedule.steps.count) steps, \(report.durationMs) ms, parents \(parents), "
            + (joined ? "joined (corpus \(corpus.count))" : "nothing new"))
    }

    /// Schedule `index`, and the entries it was mutated from (none for a fresh one).
    private mutating func plan(_ index: Int) -> (schedule: HuntSchedule, parents: [Int]) {
        var random = HuntDraws(seed: SplitMix64.subseed(mutator.generator.seed, "hunt/guided/\(index)"))
        if !corpus.isEmpty, !random.chance(Self.freshPercent) {
            for _ in 0..<Self.attempts {
                let parent = corpus.pick(&random)
                let other = corpus.count > 1 && random.chance(Self.splicePercent) ? corpus.pick(&random) : nil
                guard let child = mutator.mutate(corpus[parent], splicingWith: other.map { corpus[$0] }, index: index, &random),
                      accepts(child) else { continue }
                return (child, [parent] + (other.map { [$0] } ?? []))
            }
        }
        return (mutator.generator.schedule(index), [])
    }
}
