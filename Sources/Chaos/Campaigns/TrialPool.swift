import Foundation
import ChaosTarget

/// Runs a campaign's cases — a suite's scenarios, a sweep's trials, a hunt's schedules —
/// `jobs` at a time and hands their results back in index order: the one pool of every
/// campaign.
///
/// Trials are independent cases (own scratch directory, own workers), so they can run
/// side by side; what must not change with `-j` is the outcome: the results reach
/// `consume` strictly in index order, so the first failure recorded is still the
/// minimal reproduction and the summary is the same as with `-j 1`. When `consume`
/// says stop (an I/O sweep that ran past the workload's last operation), no further
/// trial starts, and results of trials already running past that point are dropped.
///
/// `jobs` counts trials at work. A trial whose app keeps it waiting gives its place up
/// (``TrialSlot``) and the next trial starts meanwhile, up to ``waitingPerJob`` waiting
/// trials a job: a request its worker leaves unanswered while all but idle (a hang
/// waiting out its bound, a black hole, a server's slow answer), a `wait:` step, a read
/// asked again while the app recovers (``TrialSlot/waitingAfter``). A hunt of an app
/// whose queries hang waits its hangs out side by side, not one or two at a time, and
/// uses no more CPU for it.
struct TrialPool<Trial, Result> {
    var jobs: Int

    /// How many trials may wait at once, for each job.
    static var waitingPerJob: Int { 8 }

    /// - Parameters:
    ///   - trial: the trial at an index, or nil past the last one.
    ///   - run: runs one trial in the place it holds (called on several threads at once).
    ///   - consume: hears each result in index order; returns false to stop the sweep.
    func run(trial: (Int) -> Trial?, run: (Trial, TrialSlot) -> Result,
             consume: (Int, Trial, Result) -> Bool) {
        precondition(jobs >= 1, "a pool runs at least one trial at a time")
        let state = PoolState<Trial, Result>(working: jobs)
        // The closures are used only while this call runs: its threads are joined before
        // it returns. They are captured as they are: a box of generic closures made
        // escaping by `withoutActuallyEscaping` was released twice by the code Swift 6.1
        // generates for it (a crash at the end of every pool).
        withoutActuallyEscaping(trial) { trial in
            withoutActuallyEscaping(run) { run in
                withoutActuallyEscaping(consume) { consume in
                    nonisolated(unsafe) let next = trial
                    nonisolated(unsafe) let body = run
                    nonisolated(unsafe) let hear = consume
                    // As many threads as trials may be in flight: at work or waiting.
                    PoolThreads.run(count: jobs * (1 + Self.waitingPerJob)) {
                        while let (index, item, slot) = state.take(next) {
                            let result = body(item, slot)
                            state.finish(index, item, result, slot: slot, consume: hear)
                        }
                    }
                }
            }
        }
    }
}

/// Runs `body` on `count` threads at once, the calling one among them, and returns
/// when every one has finished (joined: nothing of `body` outlives the call). A thread
/// the system refuses is one fewer, never an error. Each has the 8 MiB stack a
/// dispatch thread has: a case's code (YAML, JSON, SQLite in the controller) wants it.
private enum PoolThreads {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func run(count: Int, _ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, 8 << 20)
            var threads: [pthread_t] = []
            for _ in 1..<max(1, count) {
                let context = Unmanaged.passRetained(Body(body)).toOpaque()
                var thread = pthread_t()
                let created = pthread_create(&thread, &attributes, { context in
                    guard let context else { return nil }
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
                if created == 0 {
                    threads.append(thread)
                } else {
                    Unmanaged<Body>.fromOpaque(context).release()
                }
            }
            body()
            for thread in threads { pthread_join(thread, nil) }
        }
    }
}

/// Runs `aside` on a thread of its own (8 MiB of stack, as a pool's) while `main` runs
/// on the calling thread, and returns what each gave once both have ended: a hang's run
/// at the case's full timeout goes on beside its shrink, waiting with no job of its own.
func runBeside<Aside, Main>(_ aside: () -> Aside, _ main: () -> Main) -> (aside: Aside, main: Main) {
    let turn = NSLock()
    var asideTaken = false
    nonisolated(unsafe) var asideResult: Aside?
    nonisolated(unsafe) var mainResult: Main?
    withoutActuallyEscaping(aside) { aside in
        withoutActuallyEscaping(main) { main in
            nonisolated(unsafe) let aside = aside
            nonisolated(unsafe) let main = main
            PoolThreads.run(count: 2) {
                turn.lock()
                let mine = !asideTaken
                asideTaken = true
                turn.unlock()
                if mine { asideResult = aside() } else { mainResult = main() }
            }
        }
    }
    // A second thread the system refused leaves the calling one to run the other after.
    return (asideResult ?? aside(), mainResult ?? main())
}

/// The place one trial of a ``TrialPool`` takes while it works: given up while its app
/// keeps it waiting, taken again when it goes on (for a moment the pool may then have a
/// trial more at work than `jobs`).
package final class TrialSlot: @unchecked Sendable {
    /// How long a trial's app keeps it waiting before it gives its place up (for a
    /// request, with its worker on the CPU less than half of that time:
    /// ``isWaiting(cpuTicks:over:)``): well inside a hang's bound (6 s at least), and
    /// short enough that a launch waiting on a server (a database made for the case) lets
    /// the next trial work.
    static let waitingAfter: Duration = .milliseconds(100)

    /// Whether a worker that used `cpuTicks` of CPU (clock ticks) over `wall` is waiting:
    /// on the CPU less than half of the time. A step at work (a salvage, a big
    /// migration) keeps its place, so a pool never runs many more than `jobs` trials at work.
    static func isWaiting(cpuTicks: UInt64, over wall: Duration) -> Bool {
        let tickMs = 1_000 / max(1, Int(sysconf(Int32(_SC_CLK_TCK))))
        return Int(cpuTicks) * tickMs * 2 < wall.wholeMilliseconds
    }

    fileprivate let changed: (TrialSlot, _ waiting: Bool) -> Void
    fileprivate var isWaiting = false

    fileprivate init(changed: @escaping (TrialSlot, _ waiting: Bool) -> Void) {
        self.changed = changed
    }

    /// The trial waits on its app: another may start.
    func waiting() { changed(self, true) }
    /// The trial is at work again.
    func working() { changed(self, false) }
}

/// The queue of a pool: the next index to hand out, how many trials are at work, and
/// results waiting for their turn. Unchecked Sendable: every method runs
/// under `condition`.
private final class PoolState<Trial, Result>: @unchecked Sendable {
    private let condition = NSCondition()
    private let maxWorking: Int
    private var working = 0
    private var nextIndex = 0
    private var nextToConsume = 0
    private var waiting: [Int: (Trial, Result)] = [:]
    private var stopped = false

    init(working: Int) {
        maxWorking = working
    }

    /// The next trial to run and its slot, once there is room for it; nil when the sweep
    /// is over (or Ctrl-C was pressed).
    func take(_ trial: (Int) -> Trial?) -> (Int, Trial, TrialSlot)? {
        condition.lock(); defer { condition.unlock() }
        while !stopped, !RunInterruption.requested, working >= maxWorking {
            // In slices: Ctrl-C is seen without a signal to this condition.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.2))
        }
        guard !stopped, !RunInterruption.requested, let next = trial(nextIndex) else { return nil }
        nextIndex += 1
        working += 1
        let slot = TrialSlot { [unowned self] slot, waiting in self.slot(slot, waiting: waiting) }
        return (nextIndex - 1, next, slot)
    }

    /// Files a result, hands every result whose turn has come to `consume`, in order,
    /// and frees the trial's place.
    func finish(_ index: Int, _ trial: Trial, _ result: Result, slot: TrialSlot, consume: (Int, Trial, Result) -> Bool) {
        condition.lock(); defer { condition.unlock() }
        precondition(index >= nextToConsume && waiting[index] == nil, "a trial's result is filed once, before its turn")
        waiting[index] = (trial, result)
        while !stopped, let (trial, result) = waiting.removeValue(forKey: nextToConsume) {
            if !consume(nextToConsume, trial, result) { stopped = true }
            nextToConsume += 1
        }
        if !slot.isWaiting { working -= 1 }
        precondition(working >= 0, "a trial at work leaves the pool once")
        condition.broadcast()
    }

    private func slot(_ slot: TrialSlot, waiting: Bool) {
        condition.lock(); defer { condition.unlock() }
        // A trial may say the same twice (a long request, then a poll): it counts once.
        guard slot.isWaiting != waiting else { return }
        slot.isWaiting = waiting
        working += waiting ? -1 : 1
        condition.broadcast()
    }
}
