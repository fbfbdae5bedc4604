import Foundation

/// Runs a list of scenarios one case after another and assembles the run report.
public struct SuiteRunner {
    public var options: RunOptions
    public var command: String

    public init(options: RunOptions, command: String) {
        self.options = options
        self.command = command
    }

    /// Runs every scenario; `progress` hears about each case as it starts and ends.
    public func run(_ scenarios: [Scenario], progress: (CaseEvent) -> Void = { _ in }) -> RunReport {
        let clock = ContinuousClock()
        let start = clock.now
        let startedAt = ISO8601DateFormatter().string(from: Date())
        var cases: [CaseReport] = []
        for scenario in scenarios {
            if RunInterruption.requested {
                break
            }
            progress(.started(scenario))
            let runner = CaseRunner(scenario: scenario, options: options)
            let report = runner.run()
            cases.append(report)
            progress(.finished(report, scratch: options.keepScratch ? runner.scratchDirectory : nil))
        }
        let elapsed = clock.now - start
        let info = RunInfo(
            id: UUID().uuidString.lowercased(), startedAt: startedAt, chaosVersion: ChaosVersion.current,
            seed: options.seed, variant: options.variant, command: command, target: options.worker.targetName)
        return RunReport(run: info, cases: cases,
                         durationMs: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    }

    public enum CaseEvent {
        case started(Scenario)
        case finished(CaseReport, scratch: URL?)
    }
}

public enum ChaosVersion {
    public static let current = "0.1.0"
}
