import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportSetTests {
    @Test func writesTheThreeFilesCreatingTheDirectory() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-reports-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("nested/reports")
        let files = try ReportSet.write(ReportSample.report, to: directory)
        #expect(files.json.lastPathComponent == "chaos-report.json")
        #expect(files.html.lastPathComponent == "chaos-report.html")
        #expect(files.junit.lastPathComponent == "junit.xml")
        #expect(try JSONReportWriter.read(from: files.json) == ReportSample.report)
        #expect(try String(contentsOf: files.html, encoding: .utf8) == HTMLReportWriter.html(ReportSample.report))
        #expect(try String(contentsOf: files.junit, encoding: .utf8) == JUnitReportWriter.xml(ReportSample.report))

        // A second run into the same directory replaces the files.
        let empty = RunReport(run: ReportSample.report.run, cases: [])
        try ReportSet.write(empty, to: directory)
        #expect(try JSONReportWriter.read(from: files.json) == empty)
    }
}
