import Testing
@testable import Chaos
@testable import ChaosTarget

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

    @Test func rejectsBadParameters() {
        func message(_ body: String) -> String? {
            do {
                _ = try ScenarioFixtures.faultStep("- fault: throw\n" + body)
                return nil
            } catch { return error.message }
        }
        #expect(message("  message: x")?.contains("needs 'point:'") == true)
        #expect(message("  point: favorites")?.contains("must be a point path") == true)
        #expect(message("  point: a/b\n  mesage: x")?.contains("unknown key 'mesage'") == true)
        #expect(message("  point: a/b\n  message: [x]")?.contains("expected a string, found a list") == true)
    }
}
