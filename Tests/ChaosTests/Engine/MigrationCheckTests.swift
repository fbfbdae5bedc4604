import Chaos
import Foundation
import Testing

/// `chaos check`'s migration cases for a target that declares the stores its older
/// versions left (the journal example's first release, on GRDB's migrator).
@Suite struct MigrationCheckTests {
    static let journal = CheckTests.example("journal")

    func check(_ variant: String) throws -> [String: CaseReport] {
        let folder = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "--target-exec", Self.journal, "--variant", variant, "--only", "check-migrate-v1",
                                     "--only", "check-migrate-v1-disk-full", "--report-dir", folder.url.path])
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        return Dictionary(uniqueKeysWithValues: report.cases.map { ($0.scenario, $0) })
    }

    @Test func theCarefulStartUpMigratesOnAFullDiskLaterAndTheTemplateTraps() throws {
        let careful = try check("careful")
        #expect(careful["check-migrate-v1"]?.verdict == .passed, "\(careful["check-migrate-v1"]?.expectations.map(\.observed) ?? [])")
        #expect(careful["check-migrate-v1-disk-full"]?.verdict == .passed)
        let held = careful["check-migrate-v1"]?.expectations.first { $0.kind == "records-at-least" }
        #expect(held?.observed == "12 records")
        let template = try check("template")
        #expect(template["check-migrate-v1"]?.verdict == .passed, "a plain migration works in the template too")
        #expect(template["check-migrate-v1-disk-full"]?.trap?.site == "TemplateStartup.swift:13")
    }

    /// `records-at-least` can fail: the same older store, held to one record more than it has.
    @Test func aStoreThatComesBackShortFailsRecordsAtLeast() throws {
        let folder = try TemporaryFolder()
        let fixture = ReportFormatTests.repository.appendingPathComponent("Examples/Journal/fixtures/journal-v1.sqlite").path
        let scenario = try folder.write("short.yaml", """
            name: short
            summary: The journal's first store, held to a record it never had.
            system: storage
            steps:
              - launch
              - stop
              - fault: replace-file
                file: store
                with: \(fixture)
              - launch
              - do: journal.read
            expect:
              - records-at-least: 13
            """)
        let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", Self.journal, "--report-dir", folder.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)")
        #expect(result.stdout.contains("saw 12 records") && result.stdout.contains("1 of the 13 records are gone"), "\(result.stdout)")
    }
}
