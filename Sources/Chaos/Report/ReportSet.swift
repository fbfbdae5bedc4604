import Foundation
import ChaosTarget

/// The three files one run leaves behind (DESIGN.md section 4).
///
/// ```swift
/// let written = try ReportSet.write(report, to: URL(filePath: "reports"))
/// print("report: \(written.html.path)")
/// ```
///
/// A folder holds the latest run's reports under fixed names, which CI steps and
/// `--baseline` rely on. A report of another run already there is never overwritten
/// silently: it is moved to `previous/STARTED-ID/` first (the last
/// ``keptPreviousRuns`` are kept), and ``Written/archived`` says where.
package enum ReportSet {
    package static let jsonFileName = "chaos-report.json"
    package static let htmlFileName = "chaos-report.html"
    package static let junitFileName = "junit.xml"
    package static let previousFolder = "previous"
    package static let keptPreviousRuns = 10

    /// What a write left, and where the reports it replaced went.
    package struct Written {
        package var json: URL
        package var html: URL
        package var junit: URL
        /// The folder the reports of the run before were moved to, if there were any.
        package var archived: URL?
    }

    /// Writes `chaos-report.json`, `chaos-report.html` and `junit.xml` into
    /// `directory`, creating it (and its parents) if needed. Each file is written
    /// atomically, so a reader never sees half a report; two runs writing into one
    /// folder at once take turns (a lock file).
    @discardableResult
    package static func write(_ report: RunReport, to directory: URL) throws -> Written {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lock = open(directory.appendingPathComponent(".chaos-report.lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer { if lock >= 0 { flock(lock, LOCK_UN); close(lock) } }
        let archived = try archivePrevious(in: directory, before: report.run.id)
        let written = Written(json: directory.appendingPathComponent(jsonFileName), html: directory.appendingPathComponent(htmlFileName),
                              junit: directory.appendingPathComponent(junitFileName), archived: archived)
        try JSONReportWriter.data(report).write(to: written.json, options: .atomic)
        try Data(HTMLReportWriter.html(report).utf8).write(to: written.html, options: .atomic)
        try Data(JUnitReportWriter.xml(report).utf8).write(to: written.junit, options: .atomic)
        return written
    }

    /// Moves the reports of another run in `directory` to `previous/`; nil when there
    /// were none, or they are this run's own (written again).
    static func archivePrevious(in directory: URL, before runID: String) throws -> URL? {
        let json = directory.appendingPathComponent(jsonFileName)
        let files = [jsonFileName, htmlFileName, junitFileName].map { directory.appendingPathComponent($0) }
        guard files.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        let earlier = try? JSONReportWriter.read(from: json)
        guard earlier?.run.id != runID else { return nil }
        let stamp = (earlier?.run.startedAt ?? "unknown").replacingOccurrences(of: ":", with: "")
        let name = "\(stamp)-\((earlier?.run.id ?? UUID().uuidString.lowercased()).prefix(8))"
        let previous = directory.appendingPathComponent(previousFolder, isDirectory: true)
        let archive = previous.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let target = archive.appendingPathComponent(file.lastPathComponent)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: file, to: target)
        }
        let kept = ((try? FileManager.default.contentsOfDirectory(atPath: previous.path)) ?? []).sorted()
        for old in kept.dropLast(keptPreviousRuns) {
            try? FileManager.default.removeItem(at: previous.appendingPathComponent(old))
        }
        return archive
    }
}
