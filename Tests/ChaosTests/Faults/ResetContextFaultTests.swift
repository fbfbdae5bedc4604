import FaultPoints
import Synchronization
import Testing
@testable import Chaos
@testable import ChaosTarget

/// reset-context decides nothing about the context itself: a firing runs the target's
/// own effect `reset-context` at the point that was hit, and the hit goes on.
@Suite("Fault: reset-context")
struct ResetContextFaultTests {
    /// The target effects a firing asked for, as `effect at point`.
    final class EffectLog: Sendable {
        private let entries = Mutex<[String]>([])
        func record(_ effect: String, _ point: String) { entries.withLock { $0.append("\(effect) at \(point)") } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ResetContextFault.example)
        #expect(step.fault == AnyFault(ResetContextFault(point: "store/settings/context")))
        #expect(step.fault.family == .point)
        #expect(step.trigger == Trigger(times: 1))
        #expect(step.label == "fault reset-context store/settings/context once")
    }

    @Test func aFiringRunsTheTargetsResetAtThePointHit() {
        let log = EffectLog()
        let action = ResetContextFault(point: "store/settings/*").action(PointFaultContext { log.record($0, $1) })
        guard case let .call(body) = action else {
            Issue.record("a reset-context fault calls the target's effect")
            return
        }
        #expect(log.all.isEmpty, "nothing happens before a hit")
        body(FaultPoint("store/settings/context"))
        #expect(log.all == ["reset-context at store/settings/context"])
    }

    /// Carried out by the registry, the hit runs the reset and goes on: nothing is thrown.
    @Test func theHitGoesOnAfterTheReset() throws {
        let log = EffectLog()
        let registry = FaultRegistry()
        let fault = ResetContextFault(point: "store/settings/*")
        registry.arm(fault.point) { _ in fault.action(PointFaultContext { log.record($0, $1) }) }
        try registry.fire(FaultPoint("store/settings/context")).performSync()
        try registry.fire(FaultPoint("store/favorites/fetch")).performSync()
        #expect(log.all == ["reset-context at store/settings/context"], "only the points its path matches")
    }

    @Test func rejectsBadParameters() {
        func refused(_ body: String, at spot: StepSpot, saying text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            ScenarioFixtures.expectRefused("- fault: reset-context\n" + body, at: spot, saying: text, sourceLocation: sourceLocation)
        }
        refused("  times: 1", at: .step, saying: "needs 'point:'")
        refused("  point: settings", at: .value("point"), saying: "must be a point path")
        refused("  point: a/b\n  message: x", at: .key("message"), saying: "unknown key 'message'")
    }
}
