import ChaosTesting
import Foundation
import Testing

/// ChaosTesting from a test's side: a scenario as a test, its failures at their YAML
/// lines, a scenario that does not fit its target refused at its line, the storage
/// catalog as a test, and faults scoped to one test.
@Suite struct ChaosTestingTests {
    static let notes = TargetUnderTest.product("chaos-example-notes")
    static let scenarios = "../../Examples/Notes/scenarios"

    @Test func aScenarioTheAppSurvivesPassesAndLeavesNoReports() async throws {
        let outcome = try await expectSurvives("\(Self.scenarios)/notes-corrupted.yaml", target: Self.notes, variant: "fixed")
        #expect(outcome.passed)
        #expect(outcome.reportDirectory == nil, "the reports of a passed case are not kept")
    }

    @Test func eachFailureIsAtItsYAMLLineWithTheTrapAndTheReproduceLine() async throws {
        let outcome = try await runScenario("\(Self.scenarios)/notes-corrupted.yaml", target: Self.notes, variant: "fragile")
        #expect(outcome.verdict == "deviated")
        #expect(outcome.trapSite?.hasPrefix("FragileNotesRepository.swift:") == true)
        let noTrap = try #require(outcome.failures.first { $0.message.hasPrefix("✘ no-trap") })
        #expect(noTrap.location.fileName == "notes-corrupted.yaml")
        #expect(noTrap.location.line == 12, "the launch that trapped")
        #expect(noTrap.message.contains("saw SIGILL at FragileNotesRepository.swift:"))
        #expect(noTrap.message.contains("reproduce: chaos run "))
        // One issue for the trap, which names what it kept from being judged; none for those.
        #expect(outcome.failures.map(\.location.line).sorted() == [12])
        #expect(noTrap.message.contains("not reached: the app trapped: "), "\(noTrap.message)")
        let kept = try #require(outcome.reportDirectory)
        #expect(FileManager.default.fileExists(atPath: kept.appendingPathComponent("chaos-report.html").path))
        try? FileManager.default.removeItem(at: kept)
    }

    @Test func aScenarioThatDoesNotFitIsAnIssueAtItsLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-testing-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("typo.yaml")
        try "name: typo\nsummary: a typo\nsystem: notes\nsteps:\n  - launch\n  - do: notes.ad\n".write(to: file, atomically: false, encoding: .utf8)
        try await withKnownIssue {
            _ = try await expectSurvives(file.path, target: Self.notes)
        } matching: { issue in
            issue.sourceLocation?.line == 6 && issue.description.contains("did you mean 'notes.add'?")
                || issue.error is ChaosTestingError
        }
    }

    @Test func theStorageCatalogAsATest() async throws {
        let outcomes = try await expectPassesCheck(target: Self.notes, variant: "fixed",
                                                   only: ["check-store-garbage-header", "check-disk-full-on-save"])
        #expect(outcomes.map(\.scenario).sorted() == ["check-disk-full-on-save", "check-store-garbage-header"])
        #expect(outcomes.allSatisfy { $0.passed })
    }

    @Test func aMissingProductIsSaidPlainly() async {
        await #expect(throws: ChaosTestingError.self) {
            try await runScenario("\(Self.scenarios)/notes-corrupted.yaml", target: .product("no-such-target"))
        }
    }

    @Test(.faults(.throw(at: "store/testing/*", message: "scoped by the trait")))
    func theTraitScopesFaultsToTheTest() {
        #expect(throws: InjectedFault.self) { () throws in try FaultPoint("store/testing/save").hit() }
        #expect(FaultScope.current?.firings.count == 1)
    }
}
