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

    /// Runs every scenario, `jobs` cases at work at a time on the campaigns' pool
    /// (``TrialPool``: each case has its own scratch directory, workers, ports and proxy,
    /// so they do not meet; one whose app keeps it waiting lets the next start);
    /// `progress` hears each case as it starts and, in the order given, as it ends, one
    /// event at a time. The report lists the cases in the order given.
    package func run(_ scenarios: [Scenario], jobs: Int = 1, progress: @escaping (CaseEvent) -> Void = { _ in }) -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let options = self.options
        let told = NSLock()
        var finished: [CaseReport] = []
        TrialPool<Scenario, (CaseReport, scratch: URL)>(jobs: max(1, jobs)).run(
            trial: { $0 < scenarios.count ? scenarios[$0] : nil },
            run: { scenario, slot in
                told.withLock { progress(.started(scenario)) }
                let runner = CaseRunner(scenario: scenario, options: options, plan: CasePlan().holding(slot))
                return (runner.run(), runner.scratchDirectory)
            },
            consume: { _, _, ran in
                finished.append(ran.0)
                told.withLock { progress(.finished(ran.0, scratch: options.keepScratch ? ran.scratch : nil)) }
                return true
            })
        let elapsed = clock.now - start
        let info = RunInfo(
            id: UUID().uuidString.lowercased(), startedAt: startedAt, chaosVersion: ChaosVersion.current,
            seed: options.seed, variant: options.variant, command: command, target: options.target.name,
            targetExec: options.target.targetExec)
        // Ctrl-C: the cases that never started are in the report too, interrupted.
        let cases = finished + scenarios.dropFirst(finished.count).map { CaseRunner(scenario: $0, options: options).notStarted() }
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

package enum ChaosVersion {
    package static let current = "0.1.0"
}
