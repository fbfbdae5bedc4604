import FaultPoints

/// The schedules of a guided hunt that reached something no earlier run had
/// (``RunSignature``), and how much each is worth mutating again.
///
/// An entry's **energy** is what its share of the next parents is weighed by, as AFL's
/// and FIFUZZ's power schedules weigh a seed: entries whose children keep reaching new
/// features get more, an entry picked often without result less, a long schedule less
/// than a short one (its runs cost more, and what it reached is more often reached again
/// by a shorter one) —
/// `(4 + min(new features, 8) + 8 × children admitted) × 8 / (8 + times picked) × 16 / (4 + steps)`,
/// at least 1. A fresh entry of 12 steps starts at 4–12, a parent of two admitted
/// children at 20 and more, one picked forty times with nothing to show at 1; the same
/// entry of 28 steps has half that. Steps, not seconds: a schedule's time depends on the
/// machine and `-j`, and the corpus must grow the same way whatever they are.
struct HuntCorpus {
    struct Entry {
        var schedule: HuntSchedule
        /// Features its run reached that no run before it had.
        var newFeatures: Int
        /// Times it was picked as a parent (or the second half of a splice).
        var picked = 0
        /// Its children that joined the corpus.
        var admittedChildren = 0

        var energy: Int {
            max(1, (4 + min(newFeatures, 8) + 8 * admittedChildren) * 8 / (8 + picked) * 16 / (4 + schedule.steps.count))
        }
    }

    private(set) var entries: [Entry] = []
    /// Every feature some run of the hunt reached.
    private(set) var seen: Set<RunSignature.Feature> = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Notes what `schedule` reached; it joins the corpus when that holds a feature no
    /// earlier run had, and then the entries it was mutated from are credited with it.
    /// Returns whether it joined.
    @discardableResult
    mutating func admit(_ schedule: HuntSchedule, _ signature: RunSignature, parents: [Int] = []) -> Bool {
        let new = signature.features.subtracting(seen)
        guard !new.isEmpty else { return false }
        seen.formUnion(new)
        entries.append(Entry(schedule: schedule, newFeatures: new.count))
        for parent in Set(parents) where entries.indices.contains(parent) { entries[parent].admittedChildren += 1 }
        return true
    }

    /// An entry to mutate, each as likely as its energy, counted as picked. The corpus
    /// must not be empty.
    mutating func pick(_ random: inout HuntDraws) -> Int {
        let chosen = random.pick(weighted: entries.indices.map { ($0, entries[$0].energy) })
        entries[chosen].picked += 1
        return chosen
    }

    subscript(index: Int) -> HuntSchedule { entries[index].schedule }

    func energy(of index: Int) -> Int { entries[index].energy }
}
