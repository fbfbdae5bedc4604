import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault: delete-file")
struct DeleteFileFaultTests {
    @Test func parsesItsExampleAndPlansADeletion() throws {
        let step = try ScenarioFixtures.faultStep(DeleteFileFault.example)
        #expect(step.fault == AnyFault(DeleteFileFault(file: "store")))
        #expect(step.fault.label == "delete-file store")
        var rng = SplitMix64(seed: 1)
        #expect(DeleteFileFault().plan(fileSize: 100, rng: &rng) == .delete)
    }

    @Test func rejectsBadParameters() {
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: delete-file\n  how: truncate") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: delete-file\n  file: a/b") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: delete-file\n  times: 1") }
    }
}
