@testable import Chaos
@testable import ChaosTarget
import Testing

/// One finding per cause: a hang by the fault that started it, whatever launch or action
/// it struck; a loss by the expectation and the faults at work, which shrinking may
/// narrow (the core stays); names and titles whole.
@Suite struct HuntOracleTests {
    static func activity(_ step: Int, _ kind: String, fired: Int = 1) -> FaultActivity {
        FaultActivity(id: "step-\(step)", step: step, kind: kind, label: kind, fired: fired)
    }

    /// A case that ended at step `last` the way `observed` says, with these faults.
    static func report(failing kind: String, observed: String = "", end: AppEnd? = nil, last: Int, faults: [FaultActivity]) -> CaseReport {
        var report = ReportSample.deviated
        report.trap = nil
        // A hang or an exit ends the step it came in (an error there).
        report.steps = (1...last).map { StepRecord(index: $0, label: "step \($0)", startMs: $0 * 10, durationMs: 5,
                                                   outcome: $0 == last && kind == "no-trap" ? .error : .ok) }
        report.expectations = [ExpectationResult(kind: kind, label: kind, passed: false, expected: "", observed: end?.sentence ?? observed)]
        report.expectations[0].end = end
        report.faults = faults
        return report
    }

    static let hangSteps: [WrittenStep] = [.launch, .fault("blackhole", []), .action("orders.add", []), .fault("clock-jump", [HuntKey("by", .string("+1h"))]),
                                        .action("orders.list", []), .action("orders.add", [])]

    @Test func aHangIsOneFailureWhateverActionItStruck() throws {
        let faults = [Self.activity(2, "blackhole", fired: 3), Self.activity(4, "clock-jump")]
        let onAdd = Self.report(failing: "no-trap", end: .hung(.init(during: "orders.add")), last: 3, faults: [faults[0]])
        let onList = Self.report(failing: "no-trap", end: .hung(.init(during: "orders.list")), last: 5, faults: faults)
        let first = try #require(HuntOracle.failure(of: onAdd, steps: Self.hangSteps, remotes: ["postgres"]))
        let second = try #require(HuntOracle.failure(of: onList, steps: Self.hangSteps, remotes: ["postgres"]))
        #expect(first == second, "a clock jump that fired later does not take the blame from the network")
        #expect(first.signature == "hang after a network fault on postgres")
        #expect(first.name == "hang-network-postgres")
        #expect(first.isTrapOrHang)
    }

    @Test func aClearedFaultIsNotBlamed() throws {
        let steps: [WrittenStep] = [.launch, .fault("io-error", [HuntKey("op", .string("write"))]), .clear("all"), .fault("blackhole", []),
                                 .action("notes.add", [])]
        let report = Self.report(failing: "no-trap", end: .hung(.init(during: "notes.add")), last: 5,
                                 faults: [Self.activity(2, "io-error"), Self.activity(4, "blackhole")])
        #expect(HuntOracle.failure(of: report, steps: steps, remotes: ["sync"])?.signature == "hang after a network fault on sync")
        let none = Self.report(failing: "no-trap", end: .hung(.init(during: nil)), last: 5, faults: [])
        #expect(HuntOracle.failure(of: none, steps: steps)?.signature == "hang with no fault at work")
    }

    /// An app still waiting once the fault is gone (a breaker that waits out a fixed
    /// minute) hangs because of that fault, and for another reason than while it stood.
    @Test func aHangAfterAClearIsBlamedOnTheClearedFault() throws {
        let steps: [WrittenStep] = [.launch, .fault("network-down", []), .clear("all"), .action("workload.read", [])]
        let report = Self.report(failing: "no-trap", end: .hung(.init(during: "workload.read")), last: 4,
                                 faults: [Self.activity(2, "network-down")])
        let failure = try #require(HuntOracle.failure(of: report, steps: steps, remotes: ["postgres"]))
        #expect(failure.signature == "hang after a network fault on postgres was cleared")
        #expect(failure.name == "hang-network-postgres-cleared")
        let standing = Self.report(failing: "no-trap", end: .hung(.init(during: "workload.read")), last: 3,
                                   faults: [Self.activity(2, "network-down")])
        let whileStanding = try #require(HuntOracle.failure(of: standing, steps: [.launch, .fault("network-down", []), .action("workload.read", [])],
                                                            remotes: ["postgres"]))
        #expect(whileStanding != failure, "waiting while the network is down is another cause")
    }

    @Test func aLossIsToldApartByTheFaultsAtWorkAndShrinksByItsCore() throws {
        let steps: [WrittenStep] = [.launch, .action("notes.add", []), .fault("clock-jump", [HuntKey("by", .string("-1h"))]),
                                 .powerLoss("torn", nil), .fault("corrupt-file", [HuntKey("file", .string("store"))]), .launch,
                                 .action("notes.list", [])]
        let withClock = Self.report(failing: "no-silent-loss", observed: "1 of 3 lost", last: 7,
                                    faults: [Self.activity(3, "clock-jump"), Self.activity(4, "power-loss"), Self.activity(5, "corrupt-file")])
        let failure = try #require(HuntOracle.failure(of: withClock, steps: steps))
        #expect(failure.core == "no-silent-loss")
        #expect(failure.signature == "no-silent-loss after a power cut, file damage to store and a clock jump")
        #expect(failure.name == "fails-no-silent-loss-power-cut-file-damage")
        var shrunk = steps
        shrunk.remove(at: 2)
        let without = Self.report(failing: "no-silent-loss", observed: "1 of 3 lost", last: 6,
                                  faults: [Self.activity(3, "power-loss"), Self.activity(4, "corrupt-file")])
        let narrowed = try #require(HuntOracle.failure(of: without, steps: shrunk))
        #expect(failure.sameCore(narrowed), "shrinking keeps what failed, not what else was at work")
        #expect(narrowed.signature == "no-silent-loss after a power cut and file damage to store")
    }

    /// A hang that came only when Chaos relaunched the app after the steps, to read what it
    /// kept, is its own failure: the faults still standing then are part of it.
    @Test func aHangAtTheRelaunchIsNotAHangAtAStep() throws {
        var report = Self.report(failing: "no-trap", end: .hung(.init(during: "launch")), last: 3,
                                 faults: [Self.activity(2, "blackhole")])
        report.steps[2].outcome = .ok
        let steps: [WrittenStep] = [.launch, .fault("blackhole", []), .stop]
        let failure = try #require(HuntOracle.failure(of: report, steps: steps, remotes: ["postgres"]))
        #expect(failure.core == "hang after a network fault on postgres when relaunched to read what it kept")
        #expect(!failure.isAtAStep)
        #expect(!HuntSchedule(index: 0, seed: 1, system: "storage", steps: steps).isWellFormed(for: failure), "the blackhole still stands")
    }

    @Test func anUnexpectedExitIsTheSameWhicheverStepItEnded() {
        let steps: [WrittenStep] = [.launch, .action("a.write", []), .action("a.read", [])]
        let one = Self.report(failing: "no-trap", end: .exited(termination: "exited(3)", during: "a.write"), last: 2, faults: [])
        let two = Self.report(failing: "no-trap", end: .exited(termination: "exited(3)", during: "a.read"), last: 3, faults: [])
        #expect(HuntOracle.failure(of: one, steps: steps) == HuntOracle.failure(of: two, steps: steps))
        #expect(HuntOracle.failure(of: one, steps: steps)?.core == "exit: the worker ended unexpectedly (exited(3))")
    }
}
