import Chaos
import Foundation
import Testing

/// Seeds 003 and 004 end to end, with the real `chaos` executable: the hardened app
/// passes the visits and settings scenarios; the legacy app traps where the seeds say
/// the old code crashed — `fatalError` on a load error, and the use of a model object
/// destroyed by a context reset.
@Suite(.serialized) struct VisitsSettingsScenarioTests {
    static let scenarios = ["visits-newer-schema", "visits-reset-data", "visits-storage-full", "settings-context-reset"]

    func run(_ variant: String) throws -> [String: CaseReport] {
        let (result, cases) = try ChaosExecutable.runScenarios(Self.scenarios, variant: variant)
        #expect(result.exitCode == (variant == "hardened" ? 0 : 1), "\(result.stdout)\n\(result.stderr)")
        return cases
    }

    @Test func hardenedPassesEveryVisitsAndSettingsScenario() throws {
        let cases = try run("hardened")
        for name in Self.scenarios {
            let report = try #require(cases[name])
            #expect(report.verdict == .passed, "\(name): \(report.expectations.filter { !$0.passed }.map(\.observed))")
            #expect(report.trap == nil)
        }
        let reset = try #require(cases["settings-context-reset"])
        #expect(reset.injections.map(\.kind) == ["reset-context", "reset-context"], "the fault fired twice, where armed")
        #expect(reset.injections.allSatisfy { $0.target == "store/settings/context" })
        let newer = try #require(cases["visits-newer-schema"])
        #expect(newer.expectations.contains { $0.label.contains("visits.store-hash") && $0.passed })
    }

    @Test func legacyTrapsWhereTheSeedsSayTheOldCodeCrashed() throws {
        let cases = try run("legacy")
        let traps = [
            "visits-newer-schema": ("LegacyVisitsContainer.swift", "Core Data load error"),
            "visits-reset-data": ("LegacyStore.swift", "Failed to load store"),
            "visits-storage-full": ("LegacyStore.swift", "Failed to load store"),
            "settings-context-reset": ("LegacySettingsRepository.swift",
                                       "This model instance was destroyed by calling ModelContext.reset and is no longer usable"),
        ]
        for (name, (file, message)) in traps {
            let report = try #require(cases[name])
            #expect(report.verdict == .deviated, "\(name)")
            let trap = try #require(report.trap, "\(name) must trap on legacy")
            #expect(trap.signal == 4)
            #expect(trap.site?.hasPrefix(file + ":") == true, "\(name): site \(trap.site ?? "none")")
            #expect(trap.message?.contains(message) == true, "\(name): \(trap.message ?? "no message")")
            #expect(report.reproduce == "chaos run \(name) --seed 1 --variant legacy")
        }
    }
}
