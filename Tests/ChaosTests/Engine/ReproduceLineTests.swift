@testable import Chaos
import Foundation
import Testing

/// Every line Chaos prints to reproduce a failure, run as a user pastes it, gives the
/// verdict it reproduces: each case a whole `chaos check` did not pass (its sweeps'
/// `chaos explore --trial` lines among them: they exited 64, "no scenario named
/// 'check-write-workload'"), and each finding of `chaos hunt`.
extension ReproduceLineTests {
    /// Runs `line` (`chaos …`) with its reports in a folder of their own.
    static func runPrinted(_ line: String) throws -> (result: ChaosExecutable.Result, report: RunReport?) {
        var words = ShellWords.split(line)
        #expect(words.first == "chaos", "\(line)")
        words.removeFirst()
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(words + ["--report-dir", reports.url.path], timeout: .seconds(120))
        return (result, try? JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName)))
    }

    static let uploads = ChaosExecutable.built("chaos-example-uploads")

    @Test func everyLineACheckPrintsGivesItsVerdictAgain() throws {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "-j", "2", "--target-exec", Self.uploads, "--variant", "fragile",
                                     "--report-dir", reports.url.path], timeout: .seconds(300))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        let failing = report.cases.filter { ![.passed, .skipped].contains($0.verdict) }
        #expect(failing.count >= 8, "\(failing.map(\.scenario))")
        for item in failing {
            let again = try Self.runPrinted(item.reproduce)
            #expect(again.result.exitCode == (item.verdict == .errored ? 2 : 1), "\(item.reproduce): \(again.result.stderr)")
            #expect(again.report?.cases.map(\.verdict) == [item.verdict], "\(item.reproduce): \(again.report?.cases.map(\.verdict) ?? [])")
        }
    }

    @Test func everyLineAHuntPrintsGivesItsVerdictAgain() throws {
        let reports = try TemporaryFolder()
        let hunt = try ChaosExecutable.run(["hunt", "--target-exec", Self.uploads, "--variant", "fragile", "--schedules", "30",
                                            "--seed", "7", "-j", "2", "--report-dir", reports.url.path], timeout: .seconds(300))
        #expect(hunt.exitCode == 1, "\(hunt.stdout)\n\(hunt.stderr)")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        let findings = try #require(report.hunt?.findings)
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(hunt.stdout.contains("reproduce: \(finding.reproduce)"), "the console prints the line the report holds")
            let again = try Self.runPrinted(finding.reproduce)
            #expect(again.result.exitCode == 1 && again.report?.cases.map(\.verdict) == [.deviated], "\(finding.reproduce): \(again.result.stdout)")
        }
        // The progress line's ways of failing are the summary's.
        #expect(hunt.stdout.contains("findings: \(findings.count) distinct failure"), "\(hunt.stdout)")
    }
}
