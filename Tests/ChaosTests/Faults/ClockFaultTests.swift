import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The three clock kinds: what they read from a step, and the clock each decides.
/// No libfaketime here: faults decide, `FaketimeClock` carries out (ClockWorkerTests).
@Suite("Fault: clock-jump, clock-skew, clock-freeze")
struct ClockFaultTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    private func message(_ step: String) -> String? {
        do {
            _ = try ScenarioFixtures.faultStep(step)
            return nil
        } catch { return error.message }
    }

    @Test func examplesParse() throws {
        #expect(try ScenarioFixtures.faultStep(ClockJumpFault.example).fault == AnyFault(ClockJumpFault(by: .seconds(-3600))))
        #expect(try ScenarioFixtures.faultStep(ClockSkewFault.example).fault == AnyFault(ClockSkewFault(rate: 2)))
        let freeze = try ScenarioFixtures.faultStep(ClockFreezeFault.example)
        #expect(freeze.fault == AnyFault(ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600))))
        #expect(freeze.label == "fault clock-freeze at 2031-06-01 12:00:00Z")
        #expect(freeze.fault.family == .clock)
    }

    @Test func jumpTakesASignedNonZeroDuration() throws {
        #expect(try ScenarioFixtures.faultStep("- fault: clock-jump\n  by: +30m").fault.label == "clock-jump +30m")
        #expect(try ScenarioFixtures.faultStep("- fault: clock-jump\n  by: -1.5s").fault.label == "clock-jump -1.5s")
        #expect(message("- fault: clock-jump")?.contains("needs 'by:'") == true)
        #expect(message("- fault: clock-jump\n  by: 0s")?.contains("is zero") == true)
        #expect(message("- fault: clock-jump\n  by: an hour")?.contains("optionally signed") == true)
        #expect(message("- fault: clock-jump\n  by: -1h\n  times: 2")?.contains("takes no trigger") == true)
    }

    @Test func skewTakesARate() throws {
        for (text, rate) in [("2x", 2.0), ("0.5x", 0.5), ("1.5x", 1.5), ("100x", 100), ("0.01x", 0.01)] {
            #expect(ClockSkewFault.parseRate(text) == rate, "\(text)")
        }
        for bad in ["2", "x2", "-2x", "2.x", ".5x", "1..5x", "2 x", "twox", ""] {
            #expect(ClockSkewFault.parseRate(bad) == nil, "\(bad)")
        }
        #expect(ClockSkewFault(rate: 0.5).label == "clock-skew 0.5x")
        #expect(message("- fault: clock-skew")?.contains("needs 'rate:'") == true)
        #expect(message("- fault: clock-skew\n  rate: 2")?.contains("expected a rate like 2x") == true)
        #expect(message("- fault: clock-skew\n  rate: 0x")?.contains("from 0.01x to 100x") == true)
        #expect(message("- fault: clock-skew\n  rate: 101x")?.contains("from 0.01x to 100x") == true)
    }

    @Test func freezeTakesAnOptionalUTCDate() throws {
        #expect(try ScenarioFixtures.faultStep("- fault: clock-freeze").fault == AnyFault(ClockFreezeFault()))
        let iso = try ScenarioFixtures.faultStep("- fault: clock-freeze\n  at: 2031-06-01T12:00:00Z").fault
        #expect(iso == AnyFault(ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600))))
        #expect(ClockFreezeFault.parseDate("2031-06-01 12:00:00") == Date(timeIntervalSince1970: 1_938_081_600))
        for bad in ["2031-06-01", "2031-13-01 12:00:00", "2031-02-30 12:00:00", "2031-06-01 25:00:00", "01/06/2031 12:00:00", "2031-06-01 12:00"] {
            #expect(ClockFreezeFault.parseDate(bad) == nil, "\(bad)")
        }
        #expect(message("- fault: clock-freeze\n  at: tomorrow")?.contains("expected a UTC date") == true)
        #expect(message("- fault: clock-freeze\n  at: 1969-12-31 23:00:00")?.contains("from 1971 to 2199") == true)
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

    @Test func aRateRunsFromItsStepAndKeepsItsGainWhenCleared() {
        var clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        clock = ClockSkewFault(rate: 2).applied(to: clock, at: t0 + 100)
        #expect(clock.reading(at: t0 + 100) == t0 + 100 - 3600, "no jump when the rate changes")
        #expect(clock.reading(at: t0 + 110) == t0 + 120 - 3600, "10 real seconds are 20 on the clock")
        clock = ClockSkewFault.cleared(clock, at: t0 + 110)
        #expect(clock.rate == 1)
        #expect(clock.reading(at: t0 + 200) == t0 + 210 - 3600, "the 10 s gained stay")
        #expect(ClockClearing.cleared(clock, kind: nil, at: t0).isReal, "clear: all")
    }

    @Test func aFrozenClockStopsWhereItIsOrAtItsDateAndRunsOnWhenCleared() {
        let behind = ClockJumpFault(by: .seconds(-60)).applied(to: .real, at: t0)
        var clock = ClockFreezeFault().applied(to: behind, at: t0 + 0.75)
        #expect(clock.reading(at: t0 + 500) == t0 - 60, "frozen to the second")
        clock = ClockJumpFault(by: .seconds(-3600)).applied(to: clock, at: t0 + 600)
        #expect(clock.reading(at: t0 + 700) == t0 - 3660, "a frozen clock jumps to a new frozen reading")
        let fixed = ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600)).applied(to: .real, at: t0)
        #expect(fixed.reading(at: t0 + 99) == Date(timeIntervalSince1970: 1_938_081_600))
        #expect(ClockFreezeFault.cleared(fixed, at: t0 + 99).reading(at: t0 + 100) == t0 + 100, "runs on from real time")
    }

    @Test func clearingAnotherKindLeavesTheClockAlone() {
        let clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        #expect(ClockClearing.cleared(clock, kind: "throw", at: t0) == clock)
        #expect(ClockClearing.cleared(clock, kind: "clock-freeze", at: t0).reading(at: t0) == t0 - 3600)
    }
}
