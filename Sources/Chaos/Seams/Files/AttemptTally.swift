import ChaosTarget

/// What the app attempted under its data folder in the runs after a fault, from the libc
/// seam's counts in its replies: calls that change a file or a name, and calls the kernel
/// refused, by operation. The seam counts per process from its first launch, so each
/// run's last reply holds that run's totals; a new run starts from zero.
struct AttemptTally {
    struct Counts {
        var counted = false
        var changes = 0
        var refusedByOperation: [String: Int] = [:]
        var refused: Int { refusedByOperation.values.reduce(0, +) }
    }

    private var counting = false
    private var done = Counts()
    private var run = Counts()

    /// From the next run on (the app is down when a file fault is applied).
    mutating func startCounting() {
        counting = true
        done = Counts()
        run = Counts()
    }

    mutating func newRun() {
        guard counting else { return }
        done = total
        run = Counts()
    }

    mutating func heard(_ reach: StorageReach) {
        guard counting, let changes = reach.libcChanges else { return }
        run = Counts(counted: true, changes: changes, refusedByOperation: reach.libcRefused ?? [:])
    }

    /// The runs so far, the one going on included.
    var total: Counts {
        var sum = done
        sum.counted = done.counted || run.counted
        sum.changes += run.changes
        sum.refusedByOperation.merge(run.refusedByOperation, uniquingKeysWith: +)
        return sum
    }
}
