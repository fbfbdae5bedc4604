import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// clock-skew makes the app's wall clock run at a rate from its step, from the reading
/// it had then; `clear: clock-skew` brings the rate back to 1x and keeps the time gained
/// or lost. The clock it decides is a value; libfaketime carries it out.
@Suite("Fault: clock-skew")
struct ClockSkewFaultTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ClockSkewFault.example)
        #expect(step.fault == AnyFault(ClockSkewFault(rate: 2)))
        #expect(step.fault.family == .clock)
        #expect(step.label == "fault clock-skew 2x")
    }

    @Test func takesARate() throws {
        for (text, rate) in [("2x", 2.0), ("0.5x", 0.5), ("1.5x", 1.5), ("100x", 100), ("0.01x", 0.01)] {
            #expect(ClockSkewFault.parseRate(text) == rate, "\(text)")
        }
        for bad in ["2", "x2", "-2x", "2.x", ".5x", "1..5x", "2 x", "twox", ""] {
            #expect(ClockSkewFault.parseRate(bad) == nil, "\(bad)")
        }
        #expect(ClockSkewFault(rate: 0.5).label == "clock-skew 0.5x")
        ScenarioFixtures.expectRefused("- fault: clock-skew", at: .step, saying: "needs 'rate:'")
        ScenarioFixtures.expectRefused("- fault: clock-skew\n  rate: 2", at: .value("rate"), saying: "expected a rate like 2x")
        ScenarioFixtures.expectRefused("- fault: clock-skew\n  rate: 0x", at: .value("rate"), saying: "from 0.01x to 100x")
        ScenarioFixtures.expectRefused("- fault: clock-skew\n  rate: 101x", at: .value("rate"), saying: "from 0.01x to 100x")
    }

    @Test func aRateRunsFromItsStepAndKeepsItsGainWhenCleared() {
        var clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        clock = ClockSkewFault(rate: 2).applied(to: clock, at: t0 + 100)
        #expect(clock.reading(at: t0 + 100) == t0 + 100 - 3600, "no jump when the rate changes")
        #expect(clock.reading(at: t0 + 110) == t0 + 120 - 3600, "10 real seconds are 20 on the clock")
        clock = ClockSkewFault.cleared(clock, at: t0 + 110)
        #expect(clock.rate == 1)
        #expect(clock.reading(at: t0 + 200) == t0 + 210 - 3600, "the 10 s gained stay")
    }

    /// A slow clock loses time as a fast one gains it; a new rate replaces the old one
    /// from its own step, keeping what the old one piled up.
    @Test func aSlowClockLosesTimeAndANewRateTakesOver() {
        var clock = ClockSkewFault(rate: 0.5).applied(to: .real, at: t0)
        #expect(clock.reading(at: t0 + 100) == t0 + 50)
        clock = ClockSkewFault(rate: 3).applied(to: clock, at: t0 + 100)
        #expect(clock.rate == 3)
        #expect(clock.reading(at: t0 + 100) == t0 + 50, "no jump when the rate changes")
        #expect(clock.reading(at: t0 + 110) == t0 + 80)
        let cleared = ClockClearing.cleared(clock, kind: ClockSkewFault.kind, at: t0 + 110)
        #expect(cleared.rate == 1 && cleared.reading(at: t0 + 120) == t0 + 90, "the 30 s lost stay lost")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: clock-skew\n  rate: 2x\n  after: 1", at: .key("after"), saying: "takes no trigger")
        ScenarioFixtures.expectRefused("- fault: clock-skew\n  rate: 2x\n  by: 1h", at: .key("by"), saying: "unknown key 'by' in fault 'clock-skew'")
    }
}
