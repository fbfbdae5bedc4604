import Testing
@testable import Chaos
@testable import ChaosTarget

/// slow-close lets bytes pass as usual and holds a close back for its delay. Decided
/// as values, without a socket.
@Suite("Fault: slow-close")
struct SlowCloseFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(SlowCloseFault.example)
        #expect(step.fault == AnyFault(SlowCloseFault(delay: .seconds(1))))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault slow-close 1s")
        #expect(try ScenarioFixtures.faultStep("- fault: slow-close").fault == AnyFault(SlowCloseFault()), "1s by default")
    }

    @Test func holdsTheCloseBack() {
        var toxic = SlowCloseFault(delay: .milliseconds(700)).toxic(seed: 1)
        #expect(toxic.plan(30) == .forward(30))
        #expect(toxic.closeDelay == .milliseconds(700))
    }

    /// Only the close waits: the bytes before it pass at once and whole, and the close
    /// is delayed, never lost.
    @Test func bytesPassAsUsual() {
        var toxic = SlowCloseFault(delay: .seconds(2), direction: .both).toxic(seed: 1)
        #expect(toxic.atStart() == nil)
        for count in [1, 500, 65_536] {
            #expect(toxic.plan(count) == ChunkPlan(pieces: [.init(count: count)]), "\(count)")
        }
        #expect(toxic.closeDelay == .seconds(2))
        #expect(!toxic.swallowsClose)
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: slow-close\n  delay: 61s", at: .value("delay"), saying: "'delay' is at most 60s")
        ScenarioFixtures.expectRefused("- fault: slow-close\n  delay: -1s", at: .value("delay"), saying: "a sign is not allowed here")
        ScenarioFixtures.expectRefused("- fault: slow-close\n  direction: down", at: .value("direction"), saying: "unknown 'direction' value 'down'")
    }
}
