import FaultPoints
import Testing
@testable import Chaos
@testable import ChaosTarget

/// delay makes a fault point wait its duration, then go on: a slow fetch, a save stuck
/// behind another writer.
@Suite("Fault: delay")
struct DelayFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(DelayFault.example)
        #expect(step.fault == AnyFault(DelayFault(point: "store/favorites/fetch", duration: .milliseconds(500))))
        #expect(step.label == "fault delay store/favorites/fetch 500ms")
    }

    @Test func aFiringWaitsItsDuration() {
        let context = PointFaultContext { _, _ in }
        guard case let .delay(duration) = DelayFault(point: "a/b", duration: .seconds(2)).action(context) else {
            Issue.record("a delay fault must delay")
            return
        }
        #expect(duration == .seconds(2))
    }

    @Test func rejectsAMissingOrUnboundedDuration() {
        func refused(_ body: String, at spot: StepSpot, saying text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            ScenarioFixtures.expectRefused("- fault: delay\n" + body, at: spot, saying: text, sourceLocation: sourceLocation)
        }
        refused("  point: a/b", at: .step, saying: "needs 'for'")
        refused("  point: a/b\n  for: 0ms", at: .value("for"), saying: "above 0 and at most 60s")
        refused("  point: a/b\n  for: 2m", at: .value("for"), saying: "above 0 and at most 60s")
        refused("  for: 1s", at: .step, saying: "needs 'point:'")
    }

    @Test func aDelayedHitGoesOnAfterItsWait() throws {
        let registry = FaultRegistry()
        let point = FaultPoint("store/notes/fetch")
        let fault = DelayFault(point: point.name, duration: .milliseconds(30))
        registry.arm(fault.point) { _ in fault.action(PointFaultContext { _, _ in }) }
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try registry.fire(point).performSync() }
        #expect(elapsed >= .milliseconds(30), "\(elapsed)")
    }
}
