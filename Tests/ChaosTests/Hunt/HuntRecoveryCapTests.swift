@testable import Chaos
import Foundation
import Testing

/// A shrink's candidates ask a failed read again no longer than the hunt's slowest
/// recovery allows: a candidate that stays broken costs a second, not the oracle's 5 s;
/// what the shrunk file shows is then run at the 5 s itself.
@Suite struct HuntRecoveryCapTests {
    @Test func theCapIsThreeTimesTheSlowestRecoveryAndAtLeastASecond() {
        #expect(FindingShrinker.recoveryCap(slowestRecoveryMs: 0) == .seconds(1), "no schedule recovered slowly: a second")
        #expect(FindingShrinker.recoveryCap(slowestRecoveryMs: 800) == .milliseconds(2_400))
        #expect(FindingShrinker.recoveryCap(slowestRecoveryMs: 2_000) == nil, "an app that backs off keeps the whole bound")
    }

    /// The Notes example's fragile variant never recovers a store whose pages were zeroed:
    /// its read fails until the bound, which the cap shortens.
    @Test func aReadThatNeverRecoversIsAskedAgainOnlyUntilTheCap() throws {
        let yaml = """
        name: zeroed-then-read
        summary: The store's pages zeroed while the app is closed, then a write and a read.
        system: storage
        seed: 1
        steps:
          - launch
          - stop
          - fault: corrupt-file
            how: zero-pages
          - launch
          - do: workload.write
          - stop
          - launch
          - do: workload.read
        expect:
          - recovered-within: 5s
        """
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "zeroed-then-read.yaml", baseDirectory: nil)
        let options = RunOptions(target: try TargetSelection.userTarget(at: ChaosExecutable.built("chaos-example-notes"), variant: "fragile"),
                                 seed: 1, keepScratch: false)
        var plan = CasePlan()
        plan.recoveryPollCap = .seconds(1)
        let capped = CaseRunner(scenario: scenario, options: options, plan: plan).run()
        let cappedRead = try #require(capped.steps.last)
        #expect(capped.verdict == .deviated, "\(capped.expectations)")
        #expect(cappedRead.durationMs < 4_000, "asked again for about a second: \(cappedRead.durationMs) ms")
        let whole = CaseRunner(scenario: scenario, options: options).run()
        #expect(whole.verdict == .deviated)
        #expect((whole.steps.last?.durationMs ?? 0) >= 4_500, "without the cap, the scenario's 5 s")
    }
}
