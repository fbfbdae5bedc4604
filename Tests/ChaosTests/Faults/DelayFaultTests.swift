import FaultPoints
import Testing
@testable import Chaos
@testable import ChaosTarget

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
        func message(_ body: String) -> String? {
            ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - fault: delay\n" + body))?.message
        }
        #expect(message("    point: a/b")?.contains("needs 'for'") == true)
        #expect(message("    point: a/b\n    for: 0ms")?.contains("above 0 and at most 60s") == true)
        #expect(message("    point: a/b\n    for: 2m")?.contains("above 0 and at most 60s") == true)
        #expect(message("    for: 1s")?.contains("needs 'point:'") == true)
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
