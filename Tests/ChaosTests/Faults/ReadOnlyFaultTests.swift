import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault: read-only")
struct ReadOnlyFaultTests {
    @Test func parsesItsExampleAndPlansReadOnly() throws {
        let step = try ScenarioFixtures.faultStep(ReadOnlyFault.example)
        #expect(step.fault == AnyFault(ReadOnlyFault(file: "store")))
        #expect(step.fault.label == "read-only store")
        var rng = SplitMix64(seed: 1)
        #expect(ReadOnlyFault(file: "wal").plan(fileSize: 0, rng: &rng) == .makeReadOnly)
    }

    @Test func rejectsBadParameters() {
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: read-only\n  file: ''") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: read-only\n  mode: 444") }
    }
}
