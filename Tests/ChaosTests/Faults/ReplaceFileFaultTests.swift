import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// replace-file puts another file in place of one of the app's, resolved where the
/// scenario is and checked to exist when it is loaded.
@Suite("Fault: replace-file")
struct ReplaceFileFaultTests {
    @Test func parsesItsExampleAndResolvesAgainstTheScenarioFolder() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("fixtures/damaged.db")
        try Data("x".utf8).write(to: target)
        let step = try ScenarioFixtures.faultStep(ReplaceFileFault.example, baseDirectory: directory)
        let fault = try #require(step.fault.as(ReplaceFileFault.self))
        #expect(fault.file == "store")
        #expect(fault.path == "fixtures/damaged.db")
        #expect(fault.replacement == target.standardizedFileURL)
        #expect(step.fault.label == "replace-file store (with fixtures/damaged.db)")
        var rng = SplitMix64(seed: 1)
        #expect(fault.plan(fileSize: 10, rng: &rng) == .replace(with: target.standardizedFileURL))
    }

    @Test func absolutePathsStayAsWritten() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("user.db")
        try Data("x".utf8).write(to: target)
        let step = try ScenarioFixtures.faultStep("- fault: replace-file\n  with: \(target.path)", baseDirectory: URL(fileURLWithPath: "/"))
        #expect(step.fault.as(ReplaceFileFault.self)?.replacement.path == target.path)
        #expect(step.fault.as(ReplaceFileFault.self)?.resolvedPath(relativeTo: URL(fileURLWithPath: "/x")).path == target.path)
    }

    @Test func bundledFixturePathsResolveToTheFixturesFolder() throws {
        let fixtures = URL(fileURLWithPath: "/bundle/fixtures")
        let node = try #require(try ScenarioNode.compose("with: fixtures/a.db", file: "b.yaml"))
        let entries = try #require(node.entries, "a mapping")
        let parameters = ScenarioParameters(
            context: "fault 'replace-file'", location: node.location, entries: entries,
            baseDirectory: URL(fileURLWithPath: "/bundle/catalog"), fixturesDirectory: fixtures
        )
        let fault = try ReplaceFileFault(parameters: parameters)
        #expect(fault.replacement.path == "/bundle/fixtures/a.db")
    }

    /// A replacement goes in place whether or not the app left a file there.
    @Test func needsNoFileInPlace() {
        #expect(!ReplaceFileFault.needsTheFile)
        #expect(!ReplaceFileFault.needsPermissionBits)
    }

    @Test func rejectsBadParameters() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        ScenarioFixtures.expectRefused("- fault: replace-file", at: .step, saying: "fault 'replace-file' needs 'with:'", baseDirectory: directory)
        ScenarioFixtures.expectRefused("- fault: replace-file\n  with: nope.db", at: .value("with"),
                                       saying: "the replacement file 'nope.db' does not exist", baseDirectory: directory)
        ScenarioFixtures.expectRefused("- fault: replace-file\n  with: .", at: .value("with"),
                                       saying: "is a directory, not a file", baseDirectory: directory)
    }
}
