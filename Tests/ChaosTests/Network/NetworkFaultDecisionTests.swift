import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The network fault kinds together, without a socket: faults decide, the proxy
/// carries out, so the decisions are tested as values. Each kind's own decisions are in
/// its file (`Faults/<Kind>FaultTests.swift`); here, what is about several at once.
@Suite("Network fault decisions")
struct NetworkFaultDecisionTests {
    @Test func everyNetworkKindIsCataloguedWithAnExampleThatParses() throws {
        let network = FaultCatalog.all.filter { $0.family == .network }.map { $0.kind }
        #expect(network == ["network-down", "blackhole", "reset-peer", "limit-data", "latency", "bandwidth", "slicer", "slow-close"])
        for kind in FaultCatalog.all where kind.family == .network {
            let step = try ScenarioFixtures.faultStep(kind.example)
            #expect(step.fault.base is any NetworkFault, "\(kind.kind)")
            #expect(step.fault.label.hasPrefix(kind.kind))
        }
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
