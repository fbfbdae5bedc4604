import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// What each network fault decides, without a socket: faults decide, the proxy
/// carries out, so the decisions are tested as values.
@Suite("Network fault decisions")
struct NetworkFaultDecisionTests {
    @Test func everyNetworkKindIsCataloguedWithAnExampleThatParses() throws {
        let network = FaultCatalog.all.filter { $0.family == .network }.map { $0.kind }
        #expect(network == ["network-down", "blackhole", "latency", "reset-peer", "bandwidth", "slicer", "limit-data", "slow-close"])
        for kind in FaultCatalog.all where kind.family == .network {
            let step = try ScenarioFixtures.faultStep(kind.example)
            #expect(step.fault.base is any NetworkFault, "\(kind.kind)")
            #expect(step.fault.label.hasPrefix(kind.kind))
        }
    }

    @Test func directionAndTriggerKeysParse() throws {
        let step = try ScenarioFixtures.faultStep("""
            - fault: latency
              latency: 250ms
              jitter: 50ms
              direction: both
              probability: 50%
              after: 1
            """)
        let latency = try #require(step.fault.as(LatencyFault.self))
        #expect(latency == LatencyFault(latency: .milliseconds(250), jitter: .milliseconds(50), direction: .both))
        #expect(step.trigger.probability == 0.5)
        #expect(step.trigger.after == 1)
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: latency\n  direction: sideways") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: network-down\n  direction: both") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: latency\n  latency: 10ms\n  jitter: 20ms") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: limit-data") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: bandwidth\n  rate: fast") }
        #expect(throws: ScenarioError.self) { try ScenarioFixtures.faultStep("- fault: slicer\n  average-size: 4\n  size-variation: 4") }
    }

    @Test func networkDownRefusesAllOnlyWithTheDefaultTrigger() {
        #expect(NetworkDownFault().closesTheListener(Trigger()))
        #expect(!NetworkDownFault().closesTheListener(Trigger(probability: 0.5)))
        #expect(!NetworkDownFault().closesTheListener(Trigger(times: 1)))
        var refusal = NetworkDownFault().toxic(seed: 1)
        #expect(refusal.atStart() == .reset(after: .zero))
    }

    @Test func blackholeDropsEverythingAndKeepsTheConnection() {
        var toxic = BlackholeFault().toxic(seed: 1)
        #expect(toxic.atStart() == nil)
        #expect(toxic.plan(1_000) == .drop)
        #expect(BlackholeFault().direction == .both)
    }

    @Test func latencyJitterIsSeededAndBounded() {
        let fault = LatencyFault(latency: .milliseconds(200), jitter: .milliseconds(50))
        func delays(seed: UInt64) -> [Duration] {
            var toxic = fault.toxic(seed: seed)
            return (0..<50).map { _ in toxic.plan(10).pieces[0].delay }
        }
        let first = delays(seed: 7)
        #expect(first == delays(seed: 7))
        #expect(first != delays(seed: 8))
        #expect(first.allSatisfy { $0 >= .milliseconds(150) && $0 <= .milliseconds(250) })
        #expect(Set(first).count > 10, "jitter varies")
        var steady = LatencyFault(latency: .milliseconds(200)).toxic(seed: 1)
        #expect(steady.plan(10) == .forward(10, after: .milliseconds(200)))
    }

    @Test func resetPeerAtOnceOrAfterBytes() {
        var atOnce = ResetPeerFault().toxic(seed: 1)
        #expect(atOnce.atStart() == .reset(after: .zero))
        var later = ResetPeerFault(timeout: .milliseconds(300)).toxic(seed: 1)
        #expect(later.atStart() == .reset(after: .milliseconds(300)))
        var afterBytes = ResetPeerFault(afterBytes: 10).toxic(seed: 1)
        #expect(afterBytes.atStart() == nil)
        #expect(afterBytes.plan(6) == ChunkPlan(pieces: [.init(count: 6)]))
        #expect(afterBytes.plan(6) == ChunkPlan(pieces: [.init(count: 4)], ending: .reset(after: .zero)))
        var onFirstByte = ResetPeerFault(afterBytes: 0).toxic(seed: 1)
        #expect(onFirstByte.plan(100) == ChunkPlan(pieces: [], ending: .reset(after: .zero)))
    }

    @Test func bandwidthSlicesATenthOfASecondAtATime() {
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

    @Test func slicerSplitsIntoSeededSlicesWithPauses() {
        let fault = SlicerFault(averageSize: 8, sizeVariation: 4, delay: .milliseconds(10))
        var toxic = fault.toxic(seed: 3)
        let plan = toxic.plan(200)
        #expect(plan.byteCount == 200)
        #expect(plan.pieces.count >= 200 / 12)
        #expect(plan.pieces.dropLast().allSatisfy { (4...12).contains($0.count) })
        #expect(plan.pieces.first?.delay == .zero)
        #expect(plan.pieces.dropFirst().allSatisfy { $0.delay == .milliseconds(10) })
        var again = fault.toxic(seed: 3)
        #expect(again.plan(200) == plan)
    }

    @Test func limitDataClosesAfterTheLimit() {
        var toxic = LimitDataFault(bytes: 10).toxic(seed: 1)
        #expect(toxic.plan(4) == ChunkPlan(pieces: [.init(count: 4)]))
        #expect(toxic.plan(20) == ChunkPlan(pieces: [.init(count: 6)], ending: .close(after: .zero)))
        var nothing = LimitDataFault(bytes: 0).toxic(seed: 1)
        #expect(nothing.atStart() == .close(after: .zero))
    }

    @Test func slowCloseHoldsTheCloseBack() {
        var toxic = SlowCloseFault(delay: .milliseconds(700)).toxic(seed: 1)
        #expect(toxic.plan(30) == .forward(30))
        #expect(toxic.closeDelay == .milliseconds(700))
    }

    @Test func pipelineChainsToxicsInOrder() {
        // Slices of 4 bytes, then each slice delayed 100ms, then a cut after 10 bytes.
        var chain: [any NetworkToxic] = [
            SlicerFault(averageSize: 4, delay: .zero).toxic(seed: 1),
            LatencyFault(latency: .milliseconds(100)).toxic(seed: 1),
            LimitDataFault(bytes: 10).toxic(seed: 1),
        ]
        let plan = NetworkPipeline.plan(16, through: &chain)
        #expect(plan.pieces == [.init(count: 4, delay: .milliseconds(100)), .init(count: 4, delay: .milliseconds(100)),
                                .init(count: 2, delay: .milliseconds(100))])
        #expect(plan.ending == .close(after: .zero))
        var blackholeFirst: [any NetworkToxic] = [BlackholeFault().toxic(seed: 1), LatencyFault().toxic(seed: 1)]
        #expect(NetworkPipeline.plan(16, through: &blackholeFirst) == .drop)
    }

}
