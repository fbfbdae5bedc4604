@testable import Chaos
import Foundation
import Testing

/// The records a store put in place by the case brings (`replace-file`: the store the
/// app's first version left) are no action's, and not the app's making either: a case
/// that ends with them has made nothing up. Before, every crash trial of
/// `migrate-from-v1` failed "12 unexpected" on the hardened app, run whole or from its
/// image: the sweep's `preserved: acknowledged` knew only the case's own writes.
@Suite struct ReplacedStoreRecordsTests {
    static let fixture = ReportFormatTests.repository.appendingPathComponent("Sources/Scenarios/fixtures/older-schema-v1.sqlite").path

    @Test func theRecordsAReplacedStoreBringsAreNotUnexpected() throws {
        let yaml = """
        name: replaced-then-read
        summary: The store replaced by the first version's, then read.
        system: favorites
        seed: 1
        steps:
          - launch
          - stop
          - fault: replace-file
            file: store
            with: \(Self.fixture)
          - launch
          - do: favorites.list
        expect:
          - preserved: acknowledged
        """
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "replaced-then-read.yaml", baseDirectory: nil)
        var options = RunOptions(target: try TargetSelection.reference(), seed: 1, keepScratch: false)
        let judged = CaseRunner(scenario: scenario, options: options).run()
        let kept = try #require(judged.expectations.first { $0.kind == "preserved" })
        #expect(judged.verdict == .passed, "\(kept.observed)")
        #expect(kept.observed == "0 acknowledged, 0 lost, 0 unexpected, 0 recovered, 12 the app's own", "\(kept.observed)")
        // Without the launch on the replaced store that learns them, the twelve are unexpected.
        options.target.cleanLaunch = nil
        let unlearned = CaseRunner(scenario: scenario, options: options).run()
        #expect(unlearned.verdict == .deviated)
        #expect(unlearned.expectations.first { $0.kind == "preserved" }?.observed.hasPrefix("0 acknowledged, 0 lost, 12 unexpected") == true,
                "\(unlearned.expectations.map(\.observed))")
    }

    @Test func aMigrationsCrashSweepHoldsItsTrialsToItsCheckpointAfterTheCut() throws {
        let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
        let migration = Sweeper(scenario: try ScenarioLoader.resolve("migrate-from-v1", in: .reference), options: options,
                                kind: .crash, limit: 16, seeds: 1)
        #expect(migration.oracle.contains(.preserved("migrated")), "the checkpoint of the second launch: \(migration.oracle)")
        let locked = Sweeper(scenario: try ScenarioLoader.resolve("store-locked-at-launch", in: .reference), options: options,
                             kind: .crash, limit: 16, seeds: 1)
        #expect(!locked.oracle.contains(.preserved("before-lock")), "a checkpoint of the first run may fall after the cut: \(locked.oracle)")
        let outcome = migration.run()
        #expect(outcome.trials >= 12)
        #expect(outcome.failures.isEmpty, "\(outcome.failures): \(outcome.failedReports.first?.expectations.filter { !$0.passed }.map(\.observed) ?? [])")
    }
}
