import Chaos
import Foundation
import Testing

/// What `chaos check` says of each example's variants, case by case
/// (Fixtures/example-verdicts.txt): the glue of an example may be rewritten, its app
/// moved about, the target API grown, and every check run of an example is held to the
/// same verdicts. A case the table does not list passes.
enum ExampleVerdicts {
    static let table: [String: [String: String]] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/example-verdicts.txt")
        var table: [String: [String: String]] = [:]
        for line in ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 4 else { continue }
            table["\(words[0]) \(words[1])", default: [:]][words[2]] = words[3]
        }
        return table
    }()

    /// Expects every case of `report` (all of the catalog, or those `--only` named) to have
    /// the verdict the table gives `example`'s `variant`.
    static func hold(_ report: RunReport, example: String, variant: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let expected = table["\(example) \(variant)"] ?? [:]
        let changed = report.cases.compactMap { item -> String? in
            let verdict = expected[item.scenario] ?? Verdict.passed.rawValue
            return item.verdict.rawValue == verdict ? nil : "\(item.scenario): \(item.verdict.rawValue), was \(verdict)"
        }
        #expect(!report.cases.isEmpty && changed.isEmpty, "\(example) --variant \(variant): \(changed)", sourceLocation: sourceLocation)
    }
}

/// The variants of the examples no other test runs the whole catalog on; the others are
/// held where they run (CheckTests, RemoteExampleTests, PostgresExampleTests).
@Suite(.serialized) struct ExampleVerdictTests {
    @Test(arguments: [("journal", "demo"), ("todos", "atomic-write"), ("todos", "retries-fsync")])
    func everyCaseKeepsItsVerdict(example: String, variant: String) throws {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "-j", "2", "--target-exec", CheckTests.example(example), "--variant", variant,
                                     "--report-dir", reports.url.path], timeout: .seconds(300))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        ExampleVerdicts.hold(report, example: example, variant: variant)
    }
}
