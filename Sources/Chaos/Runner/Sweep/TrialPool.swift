import Foundation
import ChaosTarget

/// Runs a sweep's trials (or a hunt's schedules) `jobs` at a time and hands their
/// results back in index order.
///
/// Trials are independent cases (own scratch directory, own workers), so they can run
/// side by side; what must not change with `-j` is the outcome: the results reach
/// `consume` strictly in index order, so the first failure recorded is still the
/// minimal reproduction and the summary is the same as with `-j 1`. When `consume`
/// says stop (an I/O sweep that ran past the workload's last operation), no further
/// trial starts, and results of trials already running past that point are dropped.
struct TrialPool<Trial, Result> {
    var jobs: Int

    /// - Parameters:
    ///   - trial: the trial at an index, or nil past the last one.
    ///   - run: runs one trial (called on several threads at once when `jobs` > 1).
    ///   - consume: hears each result in index order; returns false to stop the sweep.
    func run(trial: (Int) -> Trial?, run: (Trial) -> Result,
             consume: (Int, Trial, Result) -> Bool) {
        let state = PoolState<Trial, Result>()
        // The closures are used only while `concurrentPerform` runs, which returns once
        // every iteration has. They are captured as they are: a box of generic closures
        // made escaping by `withoutActuallyEscaping` was released twice by the code
        // Swift 6.1 generates for it (a crash at the end of every pool).
        withoutActuallyEscaping(trial) { trial in
            withoutActuallyEscaping(run) { run in
                withoutActuallyEscaping(consume) { consume in
                    nonisolated(unsafe) let next = trial
                    nonisolated(unsafe) let body = run
                    nonisolated(unsafe) let hear = consume
                    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
                        while let (index, item) = state.take(next) {
                            let result = body(item)
                            state.finish(index, item, result, consume: hear)
                        }
                    }
                }
            }
        }
    }
}

/// The queue of a pool: the next index to hand out, and results waiting for their turn.
/// Unchecked Sendable: `take` and `finish`, its only methods, run under `lock`.
private final class PoolState<Trial, Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var nextToConsume = 0
    private var waiting: [Int: (Trial, Result)] = [:]
    private var stopped = false

    /// The next trial to run, or nil when the sweep is over (or Ctrl-C was pressed).
    func take(_ trial: (Int) -> Trial?) -> (Int, Trial)? {
        lock.lock(); defer { lock.unlock() }
        guard !stopped, !RunInterruption.requested, let next = trial(nextIndex) else { return nil }
        nextIndex += 1
        return (nextIndex - 1, next)
    }

    /// Files a result and hands every result whose turn has come to `consume`, in order.
    func finish(_ index: Int, _ trial: Trial, _ result: Result, consume: (Int, Trial, Result) -> Bool) {
        lock.lock(); defer { lock.unlock() }
        waiting[index] = (trial, result)
        while !stopped, let (trial, result) = waiting.removeValue(forKey: nextToConsume) {
            if !consume(nextToConsume, trial, result) { stopped = true }
            nextToConsume += 1
        }
    }
}
