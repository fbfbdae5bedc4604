import Chaos
import Foundation
import Testing

/// The journal example's scenarios that `chaos hunt` shrank from findings on its careful
/// start-up: each deviates on the Xcode-template start-up and passes on the careful one.
@Suite struct JournalExampleTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Journal/scenarios")

    @Test(arguments: ["journal-deleted-after-power-cut", "journal-read-only-before-first-save"])
    func theTemplateDeviatesAndTheCarefulStartUpPasses(scenario: String) throws {
        let file = Self.scenarios.appendingPathComponent("\(scenario).yaml").path
        let reports = try TemporaryFolder()
        func run(_ variant: String) throws -> ChaosExecutable.Result {
            try ChaosExecutable.run(["run", file, "--target-exec", CheckTests.example("journal"), "--variant", variant,
                                     "--report-dir", reports.url.path])
        }
        let template = try run("template")
        #expect(template.exitCode == 1, "\(template.stdout)\n\(template.stderr)")
        let careful = try run("careful")
        #expect(careful.exitCode == 0, "\(careful.stdout)\n\(careful.stderr)")
    }
}
