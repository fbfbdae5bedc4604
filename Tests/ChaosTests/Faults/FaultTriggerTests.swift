import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite("Fault triggers")
struct FaultTriggerTests {
    func firings(_ trigger: Trigger, seed: UInt64 = 1, hits: Int = 20) -> [Int] {
        let state = TriggerState(trigger: trigger, seed: seed)
        return (1...hits).filter { state.shouldFire(hit: $0) }
    }

    @Test func defaultFiresOnEveryHit() {
        #expect(firings(Trigger(), hits: 5) == [1, 2, 3, 4, 5])
    }

    @Test func afterSkipsThatManyOperations() {
        #expect(firings(Trigger(after: 3), hits: 6) == [4, 5, 6])
    }

    @Test func timesStopsAfterThatManyFirings() {
        let state = TriggerState(trigger: Trigger(after: 2, times: 2), seed: 1)
        #expect((1...8).filter { state.shouldFire(hit: $0) } == [3, 4])
        #expect(state.firedCount == 2)
        #expect(state.isExhausted)
    }

    @Test func probabilityIsSeededAndDeterministic() {
        let trigger = Trigger(after: 1, times: nil, probability: 0.3)
        let first = firings(trigger, seed: 99, hits: 1000)
        #expect(first == firings(trigger, seed: 99, hits: 1000))
        #expect(first != firings(trigger, seed: 100, hits: 1000))
        #expect(!first.contains(1))
        #expect(first.count > 240 && first.count < 360)
    }

    @Test func probabilityWithTimes() {
        let trigger = Trigger(times: 3, probability: 0.5)
        let fired = firings(trigger, seed: 5, hits: 100)
        #expect(fired.count == 3)
        #expect(fired == firings(trigger, seed: 5, hits: 100))
    }

    @Test func parsedFromAFaultStep() throws {
        let step = try ScenarioFixtures.faultStep("""
            - fault: throw
              point: store/favorites/fetch
              after: 3
              times: 2
              probability: 5%
            """)
        #expect(step.trigger == Trigger(after: 3, times: 2, probability: 0.05))
        #expect(step.trigger.label == "after 3, 2 times, 5%")
        let always = try ScenarioFixtures.faultStep("- fault: throw\n  point: a/b\n  times: always")
        #expect(always.trigger == Trigger())
        #expect(always.trigger.label == "")
    }

    @Test func badTriggerValues() {
        func error(_ extra: String) -> ScenarioError? {
            do {
                _ = try ScenarioFixtures.faultStep("- fault: throw\n  point: a/b\n  \(extra)")
                return nil
            } catch { return error }
        }
        #expect(error("times: often")?.message.contains("expected a count or 'always', found 'often'") == true)
        #expect(error("times: 0")?.message.contains("must be from 1") == true)
        #expect(error("after: -1")?.message.contains("must be from 0") == true)
        #expect(error("on: wal")?.message.contains("'on' chooses a storage file, which throw does not take") == true)
        #expect(error("tims: 2")?.suggestion == "times")
    }

    @Test func isCodable() throws {
        let trigger = Trigger(after: 2, times: 1, probability: 0.5, on: .wal)
        let data = try JSONEncoder().encode(trigger)
        #expect(try JSONDecoder().decode(Trigger.self, from: data) == trigger)
    }
}
