import Testing
@testable import Chaos
@testable import ChaosTarget

/// slow-io makes every read, write and sync wait: its latency plus a seeded draw in
/// `0...jitter`, decided per call without a clock or a seam.
@Suite("Fault: slow-io")
struct SlowIOFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(SlowIOFault.example)
        #expect(step.fault == AnyFault(SlowIOFault(latency: .milliseconds(20), jitter: .milliseconds(10))))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault slow-io 20ms ± 10ms")
        let defaulted = try ScenarioFixtures.faultStep("- fault: slow-io\n  jitter: 5ms")
        #expect(defaulted.fault == AnyFault(SlowIOFault(latency: .milliseconds(20), jitter: .milliseconds(5))), "latency: 20ms by default")
        #expect(SlowIOFault().label == "slow-io 20ms")
    }

    @Test func delaysReadsWritesAndSyncsBySeededAmounts() {
        let slow = SlowIOFault(latency: .milliseconds(10), jitter: .milliseconds(5))
        #expect([StorageCall.Operation.read, .write, .sync].allSatisfy { hits(slow, Self.call($0)) })
        #expect(!hits(slow, Self.call(.open)))
        let delay = effect(slow, Self.call(.read))
        #expect(delay.resultCode == 0)
        #expect((.milliseconds(10) ... .milliseconds(15)).contains(delay.delay))
    }

    @Test func countsOnlyReadsWritesAndSyncsOfItsFiles() {
        let slow = SlowIOFault()
        #expect(slow.operations == [.read, .write, .sync])
        #expect(![StorageCall.Operation.truncate, .lock, .shmLock, .delete, .rename].contains { hits(slow, Self.call($0)) })
        #expect(!hits(slow, on: .wal, Self.call(.write, .store)), "on: wal leaves the store alone")
        #expect(hits(slow, on: .wal, Self.call(.write, .wal)))
    }

    /// The call goes through (result 0) after its wait; the same seed draws the same waits.
    @Test func theJitterIsSeededAndWithinItsBound() {
        let slow = SlowIOFault(latency: .milliseconds(20), jitter: .milliseconds(10))
        func delays(seed: UInt64) -> [Duration] {
            var memory = NoMemory()
            var rng = SplitMix64(seed: seed)
            return (0..<50).map { _ in slow.effect(of: Self.call(.write), memory: &memory, rng: &rng).delay }
        }
        let first = delays(seed: 11)
        #expect(first == delays(seed: 11))
        #expect(first != delays(seed: 12))
        #expect(first.allSatisfy { $0 >= .milliseconds(20) && $0 <= .milliseconds(30) }, "latency plus 0...jitter, never less")
        #expect(Set(first).count > 10, "jitter varies")
        #expect(effect(SlowIOFault(latency: .milliseconds(7)), Self.call(.sync)) == .wait(.milliseconds(7)), "no jitter: the latency exactly")
        #expect(effect(slow, Self.call(.read)).libcAnswer == 0, "the libc call goes through after its wait")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: slow-io\n  latency: 0ms", at: .value("latency"), saying: "would change nothing")
        ScenarioFixtures.expectRefused("- fault: slow-io\n  latency: 11s", at: .value("latency"), saying: "'latency' is at most 10s")
        ScenarioFixtures.expectRefused("- fault: slow-io\n  jitter: 11s", at: .value("jitter"), saying: "'jitter' is at most 10s")
        ScenarioFixtures.expectRefused("- fault: slow-io\n  latency: slow", at: .value("latency"), saying: "expected a duration")
    }
}
