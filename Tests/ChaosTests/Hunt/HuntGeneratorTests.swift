@testable import Chaos
@testable import ChaosTarget
import Foundation
import ReferenceTarget
import Testing

/// The generator on the built-in app's declaration: every schedule it writes is a scenario
/// the loader and the target accept, the same seed gives the same schedules, and the
/// schedules reach every family of fault the target offers.
@Suite @MainActor struct HuntGeneratorTests {
    static var declaration: TargetDeclaration { ReferenceApp.declaration }

    static var surface: HuntSurface {
        let workload = declaration.workload ?? Workload(write: "favorites.add", read: "favorites.list")
        return HuntSurface(declaration: declaration, workload: workload,
                           points: ["store/favorites/fetch", "store/favorites/save", "store/settings/context"])
    }

    @Test func everyScheduleLoadsAndFitsTheTarget() throws {
        let generator = HuntGenerator(surface: Self.surface, seed: 1)
        for index in 0..<400 {
            let schedule = generator.schedule(index)
            #expect(schedule.isWellFormed && schedule.endsWithTheClosingRead)
            let scenario = try schedule.scenario(name: "hunt-\(index)", summary: "s", file: "hunt/\(index).yaml")
            let problems = ScenarioTargetCheck.problems(scenario, target: Self.declaration)
            #expect(problems.isEmpty, "schedule \(index): \(problems.first.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func theSameSeedGivesTheSameSchedulesAndAnotherSeedOthers() {
        let one = HuntGenerator(surface: Self.surface, seed: 7)
        let again = HuntGenerator(surface: Self.surface, seed: 7)
        let other = HuntGenerator(surface: Self.surface, seed: 8)
        #expect((0..<50).map(one.schedule) == (0..<50).map(again.schedule))
        #expect((0..<50).map(one.schedule) != (0..<50).map(other.schedule))
    }

    @Test func schedulesReachEveryFamilyTheTargetOffers() {
        let generator = HuntGenerator(surface: Self.surface, seed: 1)
        var kinds = Set<String>()
        var ends = Set<String>()
        for index in 0..<400 {
            for step in generator.schedule(index).steps {
                switch step {
                case let .fault(kind, _): kinds.insert(kind)
                case .powerLoss(_, let moment): ends.insert(moment.isEmpty ? "power-loss now" : "power-loss later")
                case .kill: ends.insert("kill")
                case .stop: ends.insert("stop")
                default: break
                }
            }
        }
        for kind in ["io-error", "disk-full", "corrupt-file", "delete-file", "read-only", "throw", "reset-context", "clock-jump",
                     "network-down", "blackhole", "reset-peer", "limit-data"] {
            #expect(kinds.contains(kind), "no \(kind) in 400 schedules")
        }
        #expect(ends == ["power-loss now", "power-loss later", "kill", "stop"])
    }

    @Test func aTargetWithoutFilesOrPointsGetsNoFaultThatCannotReachIt() {
        var surface = Self.surface
        surface.files = []
        surface.points = []
        surface.remotes = []
        let generator = HuntGenerator(surface: surface, seed: 3)
        for index in 0..<200 {
            for step in generator.schedule(index).steps {
                if case let .fault(kind, _) = step { #expect(kind == "clock-jump", "schedule \(index): \(kind)") }
                if case .powerLoss = step { Issue.record("schedule \(index) cuts the power of a target with no files") }
            }
        }
    }

    @Test func valuesAreTextQuotedAndNumbersBare() {
        #expect(ScenarioValue.string("off").yamlText == "\"off\"")
        #expect(ScenarioValue.string("Zoë “Q” \"x\"\\").yamlText == #""Zoë “Q” \"x\"\\""#)
        #expect(ScenarioValue.int(3).yamlText == "3")
        #expect(ScenarioValue.bool(false).yamlText == "false")
    }
}
