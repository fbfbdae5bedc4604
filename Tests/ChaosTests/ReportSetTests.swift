import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportSetTests {
    /// Nothing in the report folder is opened through a link planted there: the lock and
    /// the reports are refused, naming the link, and the file it points at is never
    /// created or cut (the lock, a fixed name, was opened O_CREAT through any link).
    @Test func aLinkPlantedInTheReportFolderIsNeverFollowed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-reports-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: base) }
        let reports = base.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let victim = base.appendingPathComponent("precious.txt")
        let absent = base.appendingPathComponent("never-made.txt")
        try Data("keep me".utf8).write(to: victim)
        for (name, target) in [(ReportSet.lockName, absent), (ReportSet.jsonFileName, victim)] {
            let link = reports.appendingPathComponent(name)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
            #expect(throws: ReportSet.Refusal.self) { try ReportSet.prepare(reports) }
            #expect(throws: (any Error).self) { try ReportSet.write(ReportSample.report, to: reports) }
            try FileManager.default.removeItem(at: link)
        }
        #expect(!FileManager.default.fileExists(atPath: absent.path), "the lock's link was followed")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me", "a report's link was followed")
        // With the links gone, the folder takes the reports.
        try ReportSet.prepare(reports)
        _ = try ReportSet.write(ReportSample.report, to: reports)
    }

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
