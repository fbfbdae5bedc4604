import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault: reset-context")
struct ResetContextFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ResetContextFault.example)
        #expect(step.fault == AnyFault(ResetContextFault(point: "store/settings/context")))
        #expect(step.fault.family == .point)
        #expect(step.trigger == Trigger(times: 1))
        #expect(step.label == "fault reset-context store/settings/context once")
    }

    @Test func rejectsBadParameters() {
        func message(_ body: String) -> String? {
            do {
                _ = try ScenarioFixtures.faultStep("- fault: reset-context\n" + body)
                return nil
            } catch { return error.message }
        }
        #expect(message("  times: 1")?.contains("needs 'point:'") == true)
        #expect(message("  point: settings")?.contains("must be a point path") == true)
        #expect(message("  point: a/b\n  message: x")?.contains("unknown key 'message'") == true)
    }
}
