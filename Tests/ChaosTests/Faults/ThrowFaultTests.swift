import FaultPoints
import Testing
@testable import Chaos
@testable import ChaosTarget

/// throw makes a fault point throw an `InjectedFault` carrying its message, so a report
/// can tell an injected failure from an organic one.
@Suite("Fault: throw")
struct ThrowFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ThrowFault.example)
        #expect(step.fault == AnyFault(ThrowFault(point: "store/favorites/fetch")))
        #expect(step.trigger == Trigger(times: 1))
        #expect(step.label == "fault throw store/favorites/fetch once")
    }

    @Test func pointPaths() {
        for good in ["a/b", "store/favorites/fetch", "store/*", "store/fav*", "posix/io/*", "a.b/c_d/e-f"] {
            #expect(PointPath.isValid(good), "\(good)")
        }
        for bad in ["", "a", "*", "/a", "a/", "a//b", "*/a", "a/*/b", "a b/c", "a/b*c", "ä/b"] {
            #expect(!PointPath.isValid(bad), "\(bad)")
        }
    }

    /// A firing fails with the step's message, "injected failure" when it writes none.
    @Test func aFiringFailsWithItsMessage() throws {
        let context = PointFaultContext { _, _ in }
        guard case let .fail(message) = ThrowFault(point: "a/b").action(context) else {
            Issue.record("a throw fault must fail")
            return
        }
        #expect(message == "injected failure")
        let step = try ScenarioFixtures.faultStep("- fault: throw\n  point: store/*\n  message: disk I/O error")
        let fault = try #require(step.fault.as(ThrowFault.self))
        #expect(fault == ThrowFault(point: "store/*", message: "disk I/O error"))
        #expect(fault.label == "throw store/* (\"disk I/O error\")")
        guard case let .fail(written) = fault.action(context) else {
            Issue.record("a throw fault must fail")
            return
        }
        #expect(written == "disk I/O error")
    }

    /// Carried out by the registry, the point throws an `InjectedFault` naming the point
    /// that threw, its hit and the message.
    @Test func thePointThrowsAnInjectedFault() {
        let registry = FaultRegistry()
        let fault = ThrowFault(point: "store/*", message: "disk I/O error")
        registry.arm(fault.point) { _ in fault.action(PointFaultContext { _, _ in }) }
        do {
            try registry.fire(FaultPoint("store/notes/save")).performSync()
            Issue.record("the point did not throw")
        } catch let error as InjectedFault {
            #expect(error.message == "disk I/O error")
            #expect(error.point == "store/notes/save")
            #expect(error.hit == 1)
        } catch {
            Issue.record("not an InjectedFault: \(error)")
        }
    }

    @Test func rejectsBadParameters() {
        func refused(_ body: String, at spot: StepSpot, saying text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            ScenarioFixtures.expectRefused("- fault: throw\n" + body, at: spot, saying: text, sourceLocation: sourceLocation)
        }
        refused("  message: x", at: .step, saying: "needs 'point:'")
        refused("  point: favorites", at: .value("point"), saying: "must be a point path")
        refused("  point: a/b\n  mesage: x", at: .key("mesage"), saying: "unknown key 'mesage'")
        refused("  point: a/b\n  message: [x]", at: .value("message"), saying: "expected a string, found a list")
    }
}
