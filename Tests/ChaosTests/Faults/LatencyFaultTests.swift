import Testing
@testable import Chaos
@testable import ChaosTarget

/// latency holds every chunk back by its latency, plus or minus a jitter drawn from
/// the seed: the same seed, the same waits. Decided as values, without a socket.
@Suite("Fault: latency")
struct LatencyFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(LatencyFault.example)
        #expect(step.fault == AnyFault(LatencyFault(latency: .milliseconds(200), jitter: .milliseconds(50))))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault latency 200ms ± 50ms")
        let defaults = try ScenarioFixtures.faultStep("- fault: latency")
        #expect(defaults.fault == AnyFault(LatencyFault(latency: .milliseconds(200), jitter: .zero, direction: .downstream)))
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
        #expect(latency.label == "latency 250ms ± 50ms (both)")
    }

    @Test func jitterIsSeededAndBounded() {
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

    /// Each chunk goes on whole, in one piece, after its own wait: nothing is dropped,
    /// split or ended, and the waits are below and above the latency alike.
    @Test func eachChunkGoesOnWholeAfterItsWait() {
        var toxic = LatencyFault(latency: .milliseconds(100), jitter: .milliseconds(100)).toxic(seed: 5)
        let plans = (1...200).map { toxic.plan($0) }
        #expect(plans.enumerated().allSatisfy { $1.pieces.count == 1 && $1.byteCount == $0 + 1 && $1.ending == nil })
        let delays = plans.map { $0.pieces[0].delay }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .milliseconds(200) })
        #expect(delays.contains { $0 < .milliseconds(100) } && delays.contains { $0 > .milliseconds(100) }, "plus or minus")
        #expect(toxic.atStart() == nil && toxic.closeDelay == .zero && !toxic.swallowsClose)
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: latency\n  direction: sideways", at: .value("direction"),
                                       saying: "unknown 'direction' value 'sideways'")
        ScenarioFixtures.expectRefused("- fault: latency\n  latency: 10ms\n  jitter: 20ms", at: .value("jitter"),
                                       saying: "'jitter' must not exceed 'latency'")
        ScenarioFixtures.expectRefused("- fault: latency\n  latency: 61s", at: .value("latency"), saying: "'latency' is at most 60s")
        ScenarioFixtures.expectRefused("- fault: latency\n  latency: soon", at: .value("latency"), saying: "expected a duration")
    }
}
