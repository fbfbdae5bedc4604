import Foundation
import ChaosTarget

/// Runs a sweep's trials `jobs` at a time and hands their results back in trial order.
///
/// Trials are independent cases (own scratch directory, own workers), so they can run
/// side by side; what must not change with `-j` is the outcome: the results reach
/// `consume` strictly in index order, so the first failure recorded is still the
/// minimal reproduction and the summary is the same as with `-j 1`. When `consume`
/// says stop (an I/O sweep that ran past the workload's last operation), no further
/// trial starts, and results of trials already running past that point are dropped.
struct TrialPool<Result> {
    var jobs: Int

    /// - Parameters:
    ///   - trial: the trial at an index, or nil past the last one.
    ///   - run: runs one trial (called on several threads at once when `jobs` > 1).
    ///   - consume: hears each result in index order; returns false to stop the sweep.
    func run(trial: (Int) -> SweepTrial?, run: (SweepTrial) -> Result,
             consume: (Int, SweepTrial, Result) -> Bool) {
        let state = PoolState<Result>()
        withoutActuallyEscaping(trial) { trial in
            withoutActuallyEscaping(run) { run in
                withoutActuallyEscaping(consume) { consume in
                    let shared = UncheckedBox((trial, run, consume))
                    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
                        let (trial, run, consume) = shared.value
                        while let (index, next) = state.take(trial) {
                            let result = run(next)
                            state.finish(index, next, result, consume: consume)
                        }
                    }
                }
            }
        }
    }
}

/// The queue of a pool: the next index to hand out, and results waiting for their turn.
/// Unchecked Sendable: `take` and `finish`, its only methods, run under `lock`.
private final class PoolState<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private var nextToConsume = 0
    private var waiting: [Int: (SweepTrial, Result)] = [:]
    private var stopped = false

    /// The next trial to run, or nil when the sweep is over (or Ctrl-C was pressed).
    func take(_ trial: (Int) -> SweepTrial?) -> (Int, SweepTrial)? {
        lock.lock(); defer { lock.unlock() }
        guard !stopped, !RunInterruption.requested, let next = trial(nextIndex) else { return nil }
        nextIndex += 1
        return (nextIndex - 1, next)
    }

    /// Files a result and hands every result whose turn has come to `consume`, in order.
    func finish(_ index: Int, _ trial: SweepTrial, _ result: Result, consume: (Int, SweepTrial, Result) -> Bool) {
        lock.lock(); defer { lock.unlock() }
        waiting[index] = (trial, result)
        while !stopped, let (trial, result) = waiting.removeValue(forKey: nextToConsume) {
            if !consume(nextToConsume, trial, result) { stopped = true }
            nextToConsume += 1
        }
    }
}

/// Carries non-Sendable closures into `concurrentPerform`; the pool serialises every
/// call that touches shared state (`take`, `finish`) under its lock.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
