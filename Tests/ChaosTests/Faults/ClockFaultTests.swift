import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The clock kinds together: what `clear:` does to a clock several kinds have moved.
/// Each kind's own decisions are in its file (ClockJumpFaultTests, ClockSkewFaultTests,
/// ClockFreezeFaultTests). No libfaketime here: faults decide, `FaketimeClock` carries
/// out (ClockWorkerTests).
@Suite("Fault: clock kinds together")
struct ClockFaultTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    /// `clear: all` puts right a clock that was jumped, skewed and cleared of its skew.
    @Test func clearAllPutsTheClockRight() {
        var clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        clock = ClockSkewFault(rate: 2).applied(to: clock, at: t0 + 100)
        clock = ClockSkewFault.cleared(clock, at: t0 + 110)
        #expect(ClockClearing.cleared(clock, kind: nil, at: t0).isReal, "clear: all")
    }

    @Test func clearingAnotherKindLeavesTheClockAlone() {
        let clock = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        #expect(ClockClearing.cleared(clock, kind: "throw", at: t0) == clock)
        #expect(ClockClearing.cleared(clock, kind: "clock-freeze", at: t0).reading(at: t0) == t0 - 3600)
    }
}
