import Chaos
import Foundation
import Testing

/// A user's own stack under Chaos (`--target-exec`): the example notes app deviates on
/// its fragile repository and passes on the fixed one.
@Suite struct UserTargetTests {
    static var example: String {
        URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent().appendingPathComponent("chaos-example-notes").path
    }
    static var scenarios: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Notes/scenarios")
    }

    @Test(arguments: ["notes-corrupted", "notes-save-fails", "notes-emptied-after-power-cut"])
    func theFragileRepositoryDeviatesAndTheFixedOnePasses(scenario: String) throws {
        let file = Self.scenarios.appendingPathComponent("\(scenario).yaml").path
        let reports = try TemporaryFolder()
        let fragile = try ChaosExecutable.run(["run", file, "--target-exec", Self.example, "--variant", "fragile",
                                               "--report-dir", reports.url.path])
        #expect(fragile.exitCode == 1, "\(fragile.stdout)\n\(fragile.stderr)")
        #expect(fragile.stdout.contains("--target-exec \(Self.example)"), "the reproduce command names the target")
        let fixed = try ChaosExecutable.run(["run", file, "--target-exec", Self.example, "--variant", "fixed",
                                             "--report-dir", reports.url.path])
        #expect(fixed.exitCode == 0, "\(fixed.stdout)\n\(fixed.stderr)")
    }

    @Test func theFragileTrapIsInTheExamplesOwnSource() throws {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["run", Self.scenarios.appendingPathComponent("notes-corrupted.yaml").path,
                                     "--target-exec", Self.example, "--variant", "fragile", "--report-dir", reports.url.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.trap?.site?.hasPrefix("FragileNotesRepository.swift") == true)
        #expect(report.run.target == Self.example)
    }
}
