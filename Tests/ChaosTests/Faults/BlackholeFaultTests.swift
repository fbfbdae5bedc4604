import Testing
@testable import Chaos
@testable import ChaosTarget

/// blackhole accepts and never answers: every byte is read and dropped, a close is
/// lost too, and the connection stays open. Decided as values, without a socket.
@Suite("Fault: blackhole")
struct BlackholeFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(BlackholeFault.example)
        #expect(step.fault == AnyFault(BlackholeFault(direction: .both)))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault blackhole")
        let upstream = try ScenarioFixtures.faultStep("- fault: blackhole\n  direction: upstream")
        #expect(upstream.fault == AnyFault(BlackholeFault(direction: .upstream)))
        #expect(upstream.fault.label == "blackhole (upstream)")
    }

    @Test func dropsEverythingAndKeepsTheConnection() {
        var toxic = BlackholeFault().toxic(seed: 1)
        #expect(toxic.atStart() == nil)
        #expect(toxic.plan(1_000) == .drop)
        #expect(BlackholeFault().direction == .both)
    }

    /// Never a byte, never an ending, however much is sent; the sender's close is lost.
    @Test func neverForwardsNorEnds() {
        var toxic = BlackholeFault().toxic(seed: 3)
        for count in [1, 17, 1_000, 65_536] {
            let plan = toxic.plan(count)
            #expect(plan.byteCount == 0 && plan.ending == nil, "\(count) bytes")
        }
        #expect(toxic.swallowsClose, "a FIN is a packet like any other")
        #expect(toxic.closeDelay == .zero)
        #expect(!BlackholeFault().closesTheListener(Trigger()), "connections are accepted")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: blackhole\n  direction: sideways", at: .value("direction"),
                                       saying: "unknown 'direction' value 'sideways'")
        ScenarioFixtures.expectRefused("- fault: blackhole\n  delay: 1s", at: .key("delay"), saying: "unknown key 'delay' in fault 'blackhole'")
    }
}
