/// How a hunt spends a `--budget`: schedules while there is time, but never so long that
/// the distinct failures found so far cannot be shrunk in what is left. Each failure's
/// shrink is reckoned from its schedule (about two candidates a step, and the runs that
/// measure how often it fails) at the time its own case took, or the hunt's average if
/// longer; candidates side by side count for one and a half, the first in order being
/// the one kept. Schedules stop when what is left of the budget comes down to that
/// reckoning, and go on once the failures are shrunk if time is left — a finding whole
/// is worth more than two cut short.
/// A sixth of the budget always goes to schedules: a hunt that finds a slow failure
/// first still looks for others. Without a budget (`--schedules N`) nothing is cut.
struct HuntBudget {
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant?
    let jobs: Int
    /// The schedules' cases so far: how long one takes, on average.
    private var caseMs = 0
    private var cases = 0

    /// What shrinking one failure may cost: its schedule's steps, and how long its case ran.
    struct ShrinkCost {
        var steps: Int
        var caseMs: Int

        /// Runs: about two candidates a step before no step can go (measured on the reference
        /// app's old code and the examples: 4 to 32 runs for 10 to 22 steps), and the runs that
        /// measure how often the failure shows, before and after.
        var runs: Int { 2 * steps + HuntConfirmation.triesBefore + HuntConfirmation.triesAfter }
    }

    init(start: ContinuousClock.Instant, budget: Duration?, jobs: Int) {
        self.start = start
        end = budget.map { start + $0 }
        self.jobs = max(1, jobs)
    }

    mutating func noteCase(ms: Int) {
        caseMs += ms
        cases += 1
    }

    /// How long `costs` may take, `jobs` at a time.
    func duration(of costs: [ShrinkCost]) -> Duration {
        let average = cases == 0 ? 50 : caseMs / cases
        let serial = costs.reduce(0) { $0 + $1.runs * max($1.caseMs, average, 50) }
        return .milliseconds(jobs > 1 ? serial * 2 / 3 : serial)
    }

    /// Whether another schedule may start at `now`, given the failures waiting to be shrunk.
    func mayRunSchedules(at now: ContinuousClock.Instant, toShrink costs: [ShrinkCost]) -> Bool {
        guard let end else { return true }
        guard now < end else { return false }
        let total = end - start
        if now < start + total / 6 { return true }
        // Room for the next schedule too, at the pace seen so far.
        let next = Duration.milliseconds(cases == 0 ? 0 : caseMs / cases / jobs)
        return now + duration(of: costs) + next < end
    }

    /// When shrinking a failure of this `cost` must stop: its share of what is left, by
    /// its cost among those still to shrink (itself included).
    /// Whether a new round of schedules may start: only in the first half of the budget —
    /// the second is for shrinking what was found, whole.
    func mayStartRound(at now: ContinuousClock.Instant) -> Bool {
        guard let end else { return true }
        return now < start + (end - start) / 2
    }

    func shrinkDeadline(at now: ContinuousClock.Instant, cost: ShrinkCost, costsLeft: [ShrinkCost]) -> ContinuousClock.Instant {
        guard let end else { return now + .seconds(24 * 3600) }
        let left = end - now
        guard left > .zero else { return now }
        let all = duration(of: costsLeft)
        guard all > .zero else { return end }
        // A share at least as large as its reckoning when there is room for it.
        let share = left * (Double(duration(of: [cost]).wholeMilliseconds) / Double(all.wholeMilliseconds))
        return now + max(share, min(left, duration(of: [cost])))
    }
}
