/// How a hunt spends a `--budget`: schedules while there is time, but never so long that
/// the distinct failures found so far cannot be shrunk in what is left. Each failure's
/// shrink is reckoned from its schedule (about one candidate a step, and the runs that
/// measure how often it fails) at the time its own case took, `jobs` at a time;
/// schedules stop when what is left of the budget comes down to that reckoning, and go
/// on once the failures are shrunk if time is left.
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

        /// Runs: about one candidate a step before no step can go (measured on the legacy
        /// app and the examples: 4 to 22 runs for 10 to 22 steps), and the runs that measure
        /// how often the failure shows, before and after.
        var runs: Int { steps + HuntConfirmation.triesBefore + HuntConfirmation.triesAfter }
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
        .milliseconds(costs.reduce(0) { $0 + $1.runs * max($1.caseMs, 50) } / jobs)
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
    /// Whether there is time left for more runs.
    func hasTime(at now: ContinuousClock.Instant) -> Bool { end.map { now < $0 } ?? true }

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
