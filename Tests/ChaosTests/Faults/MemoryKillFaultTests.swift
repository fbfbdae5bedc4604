import Testing
@testable import Chaos
@testable import ChaosTarget

/// memory-kill is the power family's other end: the worker's memory watch ends the
/// process as a cut that keeps every write, when its resident memory passes a bound.
@Suite("Fault: memory-kill")
struct MemoryKillFaultTests {
    @Test func parsesItsExampleAndItsBounds() throws {
        let step = try ScenarioFixtures.faultStep(MemoryKillFault.example)
        #expect(step.fault == AnyFault(MemoryKillFault(growth: 4_000_000)))
        #expect(step.fault.family == .power)
        #expect(step.fault.label == "memory-kill growth 4MB")
        #expect(try ScenarioFixtures.faultStep("- fault: memory-kill").fault.label == "memory-kill growth 4MB", "the default bound")
        #expect(try ScenarioFixtures.faultStep("- fault: memory-kill\n  above: 200MB").fault.label == "memory-kill above 200MB")
        #expect(FaultCatalog.kind(named: "memory-kill") == MemoryKillFault.self)
    }

    @Test func ordersAKillThatKeepsEveryWriteAtItsBound() {
        let growth = MemoryKillFault(growth: 1_000_000).order(caseSeed: 5)
        #expect(growth.mode == .keep, "the kernel keeps what the app wrote")
        #expect(growth.memory == .growth(1_000_000))
        #expect(!growth.isNow, "it waits for its bound")
        #expect(growth.endWords == "the system killed the app for its memory")
        #expect(MemoryKillFault(above: 50_000_000).order(caseSeed: 5).memory == .above(50_000_000))
        #expect(MemoryKillFault().isDeferred && !MemoryKillFault().tearsWrites)
        #expect(PowerLossFault().order(caseSeed: 1).endWords == "the power went out")
    }

    @Test func readsItsOwnResidentMemory() throws {
        let resident = try #require(MemoryWatch.residentBytes())
        #expect(resident > 1_000_000, "a Swift test process holds more than a megabyte: \(resident)")
    }

    @Test func rejectsBadParameters() {
        ScenarioFixtures.expectRefused("- fault: memory-kill\n  growth: 1MB\n  above: 9MB", at: .value("above"), saying: "one bound")
        ScenarioFixtures.expectRefused("- fault: memory-kill\n  above: lots", at: .value("above"), saying: "a size like 200MB")
        ScenarioFixtures.expectRefused("- fault: memory-kill\n  above: 0MB", at: .value("above"), saying: "more than 0")
        ScenarioFixtures.expectRefused("- fault: memory-kill\n  times: 2", at: .key("times"), saying: "takes no trigger")
    }
}
