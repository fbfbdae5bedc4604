import Chaos
import Foundation
import Testing

/// The examples' scenarios that `chaos hunt` shrank from findings on their careful
/// variants: each deviates on the variant a team ships first and passes on the one
/// the finding fixed. (Where the first variant has nothing the scenario reaches — the
/// uploads server's first variant keeps no manifest — it passes on the fixed one alone;
/// the session that fixed it ran it on the code before the fix, which deviated.)
@Suite struct ExampleScenarioTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var example: String
        var scenario: String
        var deviates: String?
        var passes: String
        var testDescription: String { "\(example)/\(scenario)" }
    }

    static let cases = [
        Case(example: "journal", scenario: "journal-deleted-after-power-cut", deviates: "template", passes: "careful"),
        Case(example: "journal", scenario: "journal-read-only-before-first-save", deviates: "template", passes: "careful"),
        Case(example: "journal", scenario: "journal-copy-fails-then-store-emptied", deviates: "template", passes: "careful"),
        Case(example: "ledger", scenario: "ledger-copy-fails-then-store-deleted", deviates: "fragile", passes: "fixed"),
        Case(example: "todos", scenario: "todos-backup-unreadable-then-list-deleted", deviates: "fragile", passes: "fixed"),
        Case(example: "todos", scenario: "todos-backup-fails-then-list-deleted", deviates: "fragile", passes: "fixed"),
        Case(example: "todos", scenario: "todos-prewarm-launch", deviates: "fragile", passes: "fixed"),
        Case(example: "sync", scenario: "sync-server-swallows-every-request", deviates: "fragile", passes: "fixed"),
        Case(example: "ledger", scenario: "ledger-short-reads-at-launch", deviates: "fragile", passes: "fixed"),
        Case(example: "uploads", scenario: "uploads-manifest-read-fails", deviates: nil, passes: "fixed"),
        Case(example: "uploads", scenario: "uploads-reupload-sync-fails", deviates: "fragile", passes: "fixed"),
    ]

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    @Test(arguments: cases)
    func theFirstVariantDeviatesAndTheFixedOnePasses(_ test: Case) throws {
        let folder = test.example.prefix(1).uppercased() + test.example.dropFirst()
        let file = Self.examples.appendingPathComponent("\(folder)/scenarios/\(test.scenario).yaml").path
        let reports = try TemporaryFolder()
        func run(_ variant: String) throws -> ChaosExecutable.Result {
            try ChaosExecutable.run(["run", file, "--target-exec", CheckTests.example(test.example), "--variant", variant,
                                     "--report-dir", reports.url.path])
        }
        if let deviates = test.deviates {
            let first = try run(deviates)
            #expect(first.exitCode == 1, "\(first.stdout)\n\(first.stderr)")
        }
        let fixed = try run(test.passes)
        #expect(fixed.exitCode == 0, "\(fixed.stdout)\n\(fixed.stderr)")
    }
}
