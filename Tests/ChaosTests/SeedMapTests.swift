import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget
@testable import ReferenceTarget

/// The seed map (Sources/Scenarios/seeds.yaml) and docs/SEEDS.md written from it: every
/// requirement of the seeds shown by a scenario of the catalog, and the document in step
/// with the map.
@Suite struct SeedMapTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyRequirementIsShownByAScenarioOfTheCatalog() throws {
        let map = try SeedMap.bundled()
        let catalog = Set(ScenarioCatalog.reference.names)
        #expect(map.seeds.map(\.seed) == ["000", "001", "002", "003", "004"])
        #expect(map.problems(catalog: catalog) == [])
        #expect(map.seeds.allSatisfy { !$0.requirements.isEmpty })
    }

    @Test func aRequirementWithoutAScenarioOrWithAnUnknownOneIsNamed() throws {
        var map = try SeedMap.bundled()
        map.seeds[0].requirements[0].scenarios = []
        map.seeds[1].requirements[0].scenarios = ["no-such-scenario"]
        map.seeds[2].requirements.append(map.seeds[2].requirements[0])
        let problems = map.problems(catalog: Set(ScenarioCatalog.reference.names))
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("000-1 ") && $0.hasSuffix("is shown by no scenario") })
        #expect(problems.contains { $0.contains("'no-such-scenario', which is not a catalog scenario") })
        #expect(problems.contains { $0.hasSuffix("is given twice") })
    }

    /// docs/SEEDS.md is written by `chaos seeds`: after the map changes, it must be
    /// written again (`make seeds`), or this fails.
    @Test func theDocumentListsEveryRequirementOfTheMapAndNoOther() throws {
        let map = try SeedMap.bundled()
        let document = try String(contentsOf: Self.repository.appendingPathComponent("docs/SEEDS.md"), encoding: .utf8)
        let rows = document.split(separator: "\n").filter { $0.hasPrefix("| 00") }
        let ids = rows.compactMap { $0.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(ids == map.requirements.map(\.id), "docs/SEEDS.md is not in step with seeds.yaml: run make seeds")
        for requirement in map.requirements {
            let row = rows.first { $0.hasPrefix("| \(requirement.id) |") } ?? ""
            #expect(requirement.scenarios.allSatisfy { row.contains("`\($0)`") }, "\(requirement.id)")
        }
        let notRun = document.contains("`: not run") || document.contains("· not run")
        #expect(!notRun, "every scenario of the map ran on both variants")
    }

    @Test func aVerdictIsDescribedByItsTrapSiteOrItsFailedExpectations() {
        var report = CaseReport(scenario: "s", summary: "", system: "favorites", scenarioFile: "", scenarioHash: "", seed: 1,
                                variant: "legacy", verdict: .deviated, durationMs: 1, reproduce: "")
        report.trap = TrapRecord(signal: 4, signalName: "SIGILL", site: "LegacyStore.swift:18")
        #expect(report.verdictInBrief == "✘ trap at LegacyStore.swift:18")
        report.trap = nil
        report.expectations = [
            ExpectationResult(kind: "preserved", label: "preserved: a", passed: false, expected: "", observed: ""),
            ExpectationResult(kind: "surfaced", label: "surfaced: warning", passed: false, expected: "", observed: ""),
            ExpectationResult(kind: "preserved", label: "preserved: b", passed: false, expected: "", observed: ""),
        ]
        #expect(report.verdictInBrief == "✘ preserved, surfaced")
        report.verdict = .passed
        #expect(report.verdictInBrief == "✔ passed")
    }
}
