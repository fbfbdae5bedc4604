import Testing
@testable import Chaos
@testable import ChaosTarget

/// network-down refuses connections: with the default trigger the proxy stops
/// listening; with a partial one each picked connection is reset as it is accepted.
/// Decided as values, without a socket.
@Suite("Fault: network-down")
struct NetworkDownFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(NetworkDownFault.example)
        #expect(step.fault == AnyFault(NetworkDownFault()))
        #expect(step.trigger == Trigger())
        #expect(step.fault.family == .network)
        #expect(step.label == "fault network-down")
    }

    @Test func refusesAllOnlyWithTheDefaultTrigger() {
        #expect(NetworkDownFault().closesTheListener(Trigger()))
        #expect(!NetworkDownFault().closesTheListener(Trigger(probability: 0.5)))
        #expect(!NetworkDownFault().closesTheListener(Trigger(times: 1)))
        var refusal = NetworkDownFault().toxic(seed: 1)
        #expect(refusal.atStart() == .reset(after: .zero))
    }

    /// The trigger as a step writes it: `times: 1` picks one connection, so the listener
    /// stays up; `probability: 100%` is certainty, the default.
    @Test func closesTheListenerForTheTriggerAStepWrites() throws {
        let fault = NetworkDownFault()
        #expect(!fault.closesTheListener(try ScenarioFixtures.faultStep("- fault: network-down\n  times: 1").trigger))
        #expect(!fault.closesTheListener(try ScenarioFixtures.faultStep("- fault: network-down\n  after: 1").trigger))
        #expect(fault.closesTheListener(try ScenarioFixtures.faultStep("- fault: network-down\n  probability: 100%").trigger))
        #expect(fault.closesTheListener(try ScenarioFixtures.faultStep("- fault: network-down\n  times: always").trigger))
    }

    /// A picked connection is reset before any byte reaches the remote, both ways.
    @Test func aPickedConnectionIsResetBeforeAnyByte() {
        var refusal = NetworkDownFault().toxic(seed: 9)
        #expect(refusal.plan(100) == ChunkPlan(pieces: [], ending: .reset(after: .zero)))
        #expect(refusal.closeDelay == .zero)
        #expect(!refusal.swallowsClose)
        #expect(NetworkDownFault().direction == .both)
        #expect(NetworkDownFault().direction.flows == [.upstream, .downstream])
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: network-down\n  direction: both", at: .key("direction"),
                                       saying: "unknown key 'direction' in fault 'network-down'")
        ScenarioFixtures.expectRefused("- fault: network-down\n  on: store", at: .key("on"),
                                       saying: "'on' chooses a storage file, which network-down does not take")
    }
}
