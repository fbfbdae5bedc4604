import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// clock-jump moves the app's wall clock by a signed duration: jumps add up, a frozen
/// clock jumps to a new frozen reading, and `clear: clock-jump` puts the clock right and
/// keeps any rate. The clock it decides is a value; libfaketime carries it out
/// (ClockWorkerTests).
@Suite("Fault: clock-jump")
struct ClockJumpFaultTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ClockJumpFault.example)
        #expect(step.fault == AnyFault(ClockJumpFault(by: .seconds(-3600))))
        #expect(step.fault.family == .clock)
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault clock-jump -1h")
    }

    @Test func takesASignedNonZeroDuration() throws {
        #expect(try ScenarioFixtures.faultStep("- fault: clock-jump\n  by: +30m").fault.label == "clock-jump +30m")
        #expect(try ScenarioFixtures.faultStep("- fault: clock-jump\n  by: -1.5s").fault.label == "clock-jump -1.5s")
        ScenarioFixtures.expectRefused("- fault: clock-jump", at: .step, saying: "needs 'by:'")
        ScenarioFixtures.expectRefused("- fault: clock-jump\n  by: 0s", at: .value("by"), saying: "is zero")
        ScenarioFixtures.expectRefused("- fault: clock-jump\n  by: an hour", at: .value("by"), saying: "optionally signed")
        ScenarioFixtures.expectRefused("- fault: clock-jump\n  by: -1h\n  times: 2", at: .key("times"), saying: "takes no trigger")
    }

    @Test func jumpsAddUpAndClearPutsTheClockRight() {
        var clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        clock = ClockJumpFault(by: .seconds(-3600)).applied(to: clock, at: t0 + 10)
        #expect(clock.reading(at: t0 + 20) == t0 + 20 - 7200)
        clock = ClockJumpFault(by: .seconds(7200)).applied(to: clock, at: t0 + 30)
        #expect(clock.isReal)
        clock = ClockJumpFault(by: .seconds(60)).applied(to: clock, at: t0)
        #expect(ClockClearing.cleared(clock, kind: "clock-jump", at: t0 + 5).reading(at: t0 + 9) == t0 + 9)
    }

    /// A jump moves the reading at once and nothing else: a running clock keeps running,
    /// at its rate, from its new reading.
    @Test func aJumpMovesTheReadingAndKeepsTheClockRunning() {
        let forward = ClockJumpFault(by: .seconds(1800)).applied(to: .real, at: t0)
        #expect(forward.reading(at: t0) == t0 + 1800)
        #expect(forward.reading(at: t0 + 60) == t0 + 1860, "it runs on")
        #expect(forward.rate == 1 && forward.frozenAt == nil)
        let fast = ClockSkewFault(rate: 2).applied(to: .real, at: t0)
        let jumped = ClockJumpFault(by: .seconds(-60)).applied(to: fast, at: t0 + 10)
        #expect(jumped.reading(at: t0 + 10) == t0 + 20 - 60, "from where the fast clock was")
        #expect(jumped.reading(at: t0 + 20) == t0 + 40 - 60, "still at 2x")
    }

    /// `clear: clock-jump` brings the offset back to zero at the moment it runs and
    /// leaves a rate running.
    @Test func clearKeepsARate() {
        var clock = ClockSkewFault(rate: 2).applied(to: .real, at: t0)
        clock = ClockJumpFault(by: .seconds(3600)).applied(to: clock, at: t0 + 10)
        let cleared = ClockClearing.cleared(clock, kind: ClockJumpFault.kind, at: t0 + 20)
        #expect(cleared == ClockJumpFault.cleared(clock, at: t0 + 20))
        #expect(cleared.rate == 2)
        #expect(cleared.reading(at: t0 + 20) == t0 + 20, "on real time when cleared")
        #expect(cleared.reading(at: t0 + 30) == t0 + 40, "and running at 2x from there")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: clock-jump\n  by: -1h\n  rate: 2x", at: .key("rate"), saying: "unknown key 'rate' in fault 'clock-jump'")
        ScenarioFixtures.expectRefused("- fault: clock-jump\n  by: [1h]", at: .value("by"), saying: "expected a duration")
    }
}
