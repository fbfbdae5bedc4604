import Foundation
import ChaosTarget

/// The three files one run leaves behind (DESIGN.md section 4).
///
/// ```swift
/// let files = try ReportSet.write(report, to: URL(filePath: "reports"))
/// print("report: \(files.html.path)")
/// ```
package enum ReportSet {
    package static let jsonFileName = "chaos-report.json"
    package static let htmlFileName = "chaos-report.html"
    package static let junitFileName = "junit.xml"

    /// Writes `chaos-report.json`, `chaos-report.html` and `junit.xml` into
    /// `directory`, creating it (and its parents) if needed. Each file is
    /// written atomically, so a reader never sees half a report; files of an
    /// earlier run in the same directory are replaced.
    @discardableResult
    package static func write(_ report: RunReport, to directory: URL) throws -> (json: URL, html: URL, junit: URL) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json = directory.appendingPathComponent(jsonFileName)
        let html = directory.appendingPathComponent(htmlFileName)
        let junit = directory.appendingPathComponent(junitFileName)
        try JSONReportWriter.data(report).write(to: json, options: .atomic)
        try Data(HTMLReportWriter.html(report).utf8).write(to: html, options: .atomic)
        try Data(JUnitReportWriter.xml(report).utf8).write(to: junit, options: .atomic)
        return (json, html, junit)
    }
}
