import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// clock-freeze stops the app's wall clock, at a UTC date or at its reading to the
/// second; `clear: clock-freeze` starts it again where it would have been had it run
/// on. The clock it decides is a value; libfaketime carries it out.
@Suite("Fault: clock-freeze")
struct ClockFreezeFaultTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func parsesItsExample() throws {
        let freeze = try ScenarioFixtures.faultStep(ClockFreezeFault.example)
        #expect(freeze.fault == AnyFault(ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600))))
        #expect(freeze.label == "fault clock-freeze at 2031-06-01 12:00:00Z")
        #expect(freeze.fault.family == .clock)
    }

    @Test func takesAnOptionalUTCDate() throws {
        #expect(try ScenarioFixtures.faultStep("- fault: clock-freeze").fault == AnyFault(ClockFreezeFault()))
        let iso = try ScenarioFixtures.faultStep("- fault: clock-freeze\n  at: 2031-06-01T12:00:00Z").fault
        #expect(iso == AnyFault(ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600))))
        #expect(ClockFreezeFault.parseDate("2031-06-01 12:00:00") == Date(timeIntervalSince1970: 1_938_081_600))
        for bad in ["2031-06-01", "2031-13-01 12:00:00", "2031-02-30 12:00:00", "2031-06-01 25:00:00", "01/06/2031 12:00:00", "2031-06-01 12:00"] {
            #expect(ClockFreezeFault.parseDate(bad) == nil, "\(bad)")
        }
        ScenarioFixtures.expectRefused("- fault: clock-freeze\n  at: tomorrow", at: .value("at"), saying: "expected a UTC date")
        ScenarioFixtures.expectRefused("- fault: clock-freeze\n  at: 1969-12-31 23:00:00", at: .value("at"), saying: "from 1971 to 2199")
    }

    @Test func stopsWhereItIsOrAtItsDateAndRunsOnWhenCleared() {
        let behind = ClockJumpFault(by: .seconds(-60)).applied(to: .real, at: t0)
        var clock = ClockFreezeFault().applied(to: behind, at: t0 + 0.75)
        #expect(clock.reading(at: t0 + 500) == t0 - 60, "frozen to the second")
        clock = ClockJumpFault(by: .seconds(-3600)).applied(to: clock, at: t0 + 600)
        #expect(clock.reading(at: t0 + 700) == t0 - 3660, "a frozen clock jumps to a new frozen reading")
        let fixed = ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600)).applied(to: .real, at: t0)
        #expect(fixed.reading(at: t0 + 99) == Date(timeIntervalSince1970: 1_938_081_600))
        #expect(ClockFreezeFault.cleared(fixed, at: t0 + 99).reading(at: t0 + 100) == t0 + 100, "runs on from real time")
    }

    /// Cleared, a frozen clock reads what it would have read had it run on: real time
    /// plus the jump and the drift it had before it stopped.
    @Test func clearedItRunsOnWithTheJumpAndDriftItHad() {
        var clock = ClockJumpFault(by: .seconds(600)).applied(to: .real, at: t0)
        clock = ClockSkewFault(rate: 2).applied(to: clock, at: t0)
        clock = ClockFreezeFault().applied(to: clock, at: t0 + 10)
        #expect(clock.reading(at: t0 + 100) == t0 + 620, "frozen at real time + 600 s + 10 s of drift")
        let cleared = ClockClearing.cleared(clock, kind: ClockFreezeFault.kind, at: t0 + 100)
        #expect(cleared.frozenAt == nil && cleared.rate == 2)
        #expect(cleared.reading(at: t0 + 100) == t0 + 800, "as if it had run on at 2x: 600 s + 100 s of drift")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: clock-freeze\n  at: 2031-06-01\n  times: 1", at: .key("times"), saying: "takes no trigger")
        ScenarioFixtures.expectRefused("- fault: clock-freeze\n  at: 2200-01-01 00:00:00", at: .value("at"), saying: "from 1971 to 2199")
    }
}
