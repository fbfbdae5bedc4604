import Testing
@testable import Chaos
@testable import ChaosTarget

/// bandwidth paces the bytes at a rate: each chunk in pieces of a tenth of a second's
/// worth, each after the time it takes at the rate. Decided as values, without a socket.
@Suite("Fault: bandwidth")
struct BandwidthFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(BandwidthFault.example)
        #expect(step.fault == AnyFault(BandwidthFault(bytesPerSecond: 10_000)))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault bandwidth 10000 B/s")
        let upstream = try ScenarioFixtures.faultStep("- fault: bandwidth\n  rate: 2MB/s\n  direction: upstream")
        #expect(upstream.fault == AnyFault(BandwidthFault(bytesPerSecond: 2_000_000, direction: .upstream)))
    }

    @Test func slicesATenthOfASecondAtATime() {
        #expect(BandwidthFault.parseRate("10KB/s") == 10_000)
        #expect(BandwidthFault.parseRate("500B/s") == 500)
        #expect(BandwidthFault.parseRate("2MB/s") == 2_000_000)
        #expect(BandwidthFault.parseRate("0KB/s") == nil)
        #expect(BandwidthFault.parseRate("10kb") == nil)
        var toxic = BandwidthFault(bytesPerSecond: 1_000).toxic(seed: 1)
        let plan = toxic.plan(250)
        #expect(plan.pieces.map(\.count) == [100, 100, 50])
        #expect(plan.pieces.map(\.delay) == [.milliseconds(100), .milliseconds(100), .milliseconds(50)])
    }

    /// A chunk takes as long as its bytes take at the rate, whatever its size, and every
    /// piece is at most a tenth of a second's worth; nothing is dropped or ended.
    @Test func aChunkTakesWhatItsBytesTakeAtTheRate() {
        var toxic = BandwidthFault(bytesPerSecond: 10_000).toxic(seed: 1)
        for count in [1, 999, 1_000, 25_000, 65_536] {
            let plan = toxic.plan(count)
            #expect(plan.byteCount == count && plan.ending == nil, "\(count)")
            #expect(plan.pieces.allSatisfy { $0.count <= 1_000 }, "\(count)")
            let total = plan.pieces.reduce(Duration.zero) { $0 + $1.delay }
            #expect(total == .nanoseconds(Int64(count) * 100_000), "\(count) bytes at 10KB/s: \(total)")
        }
        var slow = BandwidthFault(bytesPerSecond: 5).toxic(seed: 1)
        #expect(slow.plan(3) == ChunkPlan(pieces: Array(repeating: .init(count: 1, delay: .milliseconds(200)), count: 3)),
                "under 10 B/s, a byte at a time")
    }

    @Test func readsRatesInTheirUnits() {
        #expect(BandwidthFault.parseRate(" 3 KB/s ") == 3_000)
        #expect(BandwidthFault.parseRate("1000MB/s") == 1_000_000_000)
        #expect(BandwidthFault.parseRate("1001MB/s") == nil, "at most 1 GB/s")
        for bad in ["fast", "10", "10KB", "-5B/s", "1.5KB/s", "2GB/s", "KB/s"] {
            #expect(BandwidthFault.parseRate(bad) == nil, "\(bad)")
        }
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: bandwidth\n  rate: fast", at: .value("rate"),
                                       saying: "'rate' must be a positive rate like 500B/s, 10KB/s or 2MB/s, found 'fast'")
        ScenarioFixtures.expectRefused("- fault: bandwidth\n  rate: 0KB/s", at: .value("rate"), saying: "found '0KB/s'")
        ScenarioFixtures.expectRefused("- fault: bandwidth\n  direction: both", at: .step, saying: "fault 'bandwidth' needs 'rate:'")
    }
}
