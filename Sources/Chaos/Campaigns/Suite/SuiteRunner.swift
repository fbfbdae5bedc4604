import Foundation
import ChaosTarget

/// Runs a list of scenarios one case after another and assembles the run report.
package struct SuiteRunner {
    package var options: RunOptions
    package var command: String

    package init(options: RunOptions, command: String) {
        self.options = options
        self.command = command
    }

    /// Runs every scenario, `jobs` cases at a time (each case has its own scratch
    /// directory, workers, ports and proxy, so they do not meet); `progress` hears about
    /// each case as it starts and ends, one event at a time. The report lists the cases
    /// in the order given, whatever order they finished in.
    package func run(_ scenarios: [Scenario], jobs: Int = 1, progress: @escaping (CaseEvent) -> Void = { _ in }) -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let shared = SharedProgress(count: scenarios.count, progress: progress)
        let options = self.options
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, scenarios.count))) { _ in
            while let index = shared.nextIndex() {
                let scenario = scenarios[index]
                shared.emit(.started(scenario))
                let runner = CaseRunner(scenario: scenario, options: options)
                let report = runner.run()
                shared.finish(index, report, event: .finished(report, scratch: options.keepScratch ? runner.scratchDirectory : nil))
            }
        }
        let elapsed = clock.now - start
        let info = RunInfo(
            id: UUID().uuidString.lowercased(), startedAt: startedAt, chaosVersion: ChaosVersion.current,
            seed: options.seed, variant: options.variant, command: command, target: options.target.name,
            targetExec: options.target.targetExec)
        // Ctrl-C: the cases that never started are in the report too, interrupted.
        let cases = scenarios.indices.map { index in
            shared.report(at: index) ?? CaseRunner(scenario: scenarios[index], options: options).notStarted()
        }
        return RunReport(run: info, cases: cases, durationMs: elapsed.wholeMilliseconds)
    }

    /// The cases of shard `index` (1-based) of `count`: a stable partition by name (the
    /// same scenario always lands in the same shard, whatever else is in the catalog).
    package static func shard(_ scenarios: [Scenario], index: Int, of count: Int) -> [Scenario] {
        scenarios.filter { shardIndex(of: $0.name, count: count) == index }
    }

    /// The shard (1-based) of `count` that the unit named `name` lands in.
    package static func shardIndex(of name: String, count: Int) -> Int {
        Int(FNV1a.hash64(name) % UInt64(max(1, count))) + 1
    }

    package enum CaseEvent {
        case started(Scenario)
        case finished(CaseReport, scratch: URL?)
    }
}

/// The queue of cases and the progress of a run, shared by its worker threads.
/// Unchecked Sendable: every method takes `lock` before touching its state.
private final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var finished: [Int: CaseReport] = [:]
    private let progress: (SuiteRunner.CaseEvent) -> Void

    init(count: Int, progress: @escaping (SuiteRunner.CaseEvent) -> Void) {
        self.count = count
        self.progress = progress
    }

    /// The next case to run, or nil when all are taken (or Ctrl-C was pressed).
    func nextIndex() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < count, !RunInterruption.requested else { return nil }
        next += 1
        return next - 1
    }

    func emit(_ event: SuiteRunner.CaseEvent) {
        lock.lock(); defer { lock.unlock() }
        progress(event)
    }

    func finish(_ index: Int, _ report: CaseReport, event: SuiteRunner.CaseEvent) {
        lock.lock(); defer { lock.unlock() }
        finished[index] = report
        progress(event)
    }

    /// The finished case at `index`, if it finished.
    func report(at index: Int) -> CaseReport? {
        lock.lock(); defer { lock.unlock() }
        return finished[index]
    }
}

package enum ChaosVersion {
    package static let current = "0.1.0"
}
