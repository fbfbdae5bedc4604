import Foundation
import ChaosTarget

/// The three files one run leaves behind (docs/CI.md, "Reports folder").
///
/// ```swift
/// try ReportSet.prepare(URL(filePath: "reports"))     // before the run: exit 64 if unusable
/// let written = try ReportSet.write(report, to: URL(filePath: "reports"))
/// print("report: \(written.html.path)")
/// ```
///
/// A folder holds the latest run's reports under fixed names, which CI steps and
/// `--baseline` rely on. A report of another run already there is never overwritten
/// silently: it is moved to `previous/STARTED-ID/` first (the last
/// ``keptPreviousRuns`` are kept), and ``Written/archived`` says where.
///
/// Chaos moves and deletes only what it wrote. A file under one of the three names is
/// moved aside only when its content shows Chaos wrote it; any other is refused before
/// the run starts (``prepare(_:)``). An archive folder carries a mark
/// (``archiveMark``), and pruning removes only the reports and the mark of marked
/// folders, and the folder only when nothing else is left in it.
package enum ReportSet {
    package static let jsonFileName = "chaos-report.json"
    package static let htmlFileName = "chaos-report.html"
    package static let junitFileName = "junit.xml"
    package static let previousFolder = "previous"
    package static let keptPreviousRuns = 10
    /// The file that marks a folder of `previous/` as an archive Chaos made.
    package static let archiveMark = ".chaos-archive"
    static let reportNames = [jsonFileName, htmlFileName, junitFileName]

    /// What a write left, and where the reports it replaced went.
    package struct Written {
        package var json: URL
        package var html: URL
        package var junit: URL
        /// The folder the reports of the run before were moved to, if there were any.
        package var archived: URL?
    }

    /// Why a folder cannot take a run's reports.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// Checks, before a run starts, that `directory` can take its reports: it is (or can
    /// be made) a folder, this process can write into it, and no file under a report's
    /// name is one Chaos did not write. Creates it. A run whose reports could not be
    /// written would lose every result after minutes of work.
    package static func prepare(_ directory: URL) throws(Refusal) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw Refusal(description: "\(directory.path) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Refusal(description: "cannot create \(directory.path): \(Self.reason(error, at: directory))")
        }
        // A new file of a name no one can guess, made here and nowhere else: never through
        // a link planted in the folder (O_NOFOLLOW), never over a file (O_EXCL).
        let probe = directory.appendingPathComponent(".chaos-write-probe-\(getpid())-\(UUID().uuidString.prefix(8))")
        let fd = open(probe.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Refusal(description: "cannot write into \(directory.path): \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe.path)
        if let link = linkedReportFile(in: directory) {
            throw Refusal(description: "\(link.path) is a symbolic link: Chaos opens nothing in the report folder through a link; remove it")
        }
        for name in reportNames {
            let file = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path), !wroteByChaos(file) {
                throw Refusal(description: "\(file.path) was not written by Chaos, and a run would replace it: "
                    + "move it, or give the reports a folder of their own (--report-dir)")
            }
        }
    }

    /// Writes `chaos-report.json`, `chaos-report.html` and `junit.xml` into
    /// `directory`, creating it (and its parents) if needed. Each file is written
    /// atomically, so a reader never sees half a report; two runs writing into one
    /// folder at once take turns (a lock file).
    @discardableResult
    package static func write(_ report: RunReport, to directory: URL) throws -> Written {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let link = linkedReportFile(in: directory) {
            throw Refusal(description: "\(link.path) is a symbolic link: Chaos opens nothing in the report folder through a link; remove it")
        }
        let lock = open(directory.appendingPathComponent(lockName).path, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
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

    /// The lock two runs writing into one folder take turns with.
    static let lockName = ".chaos-report.lock"

    /// The first file Chaos would open or replace in `directory` (the lock, a report)
    /// that is a symbolic link; nil when none is.
    static func linkedReportFile(in directory: URL) -> URL? {
        ([lockName] + reportNames).map { directory.appendingPathComponent($0) }.first { file in
            var info = stat()
            return lstat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }
    }

    /// Moves the reports of another run in `directory` to `previous/`; nil when there
    /// were none, or they are this run's own (written again). A file under a report's
    /// name that Chaos did not write is never moved: the write is refused.
    static func archivePrevious(in directory: URL, before runID: String) throws -> URL? {
        let json = directory.appendingPathComponent(jsonFileName)
        let files = reportNames.map { directory.appendingPathComponent($0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
        guard !files.isEmpty else { return nil }
        if let foreign = files.first(where: { !wroteByChaos($0) }) {
            throw Refusal(description: "\(foreign.path) was not written by Chaos: not replaced; move it, or choose another --report-dir")
        }
        let earlier = try? JSONReportWriter.read(from: json)
        guard earlier?.run.id != runID else { return nil }
        let stamp = (earlier?.run.startedAt ?? "unknown").replacingOccurrences(of: ":", with: "")
        let name = "\(stamp)-\((earlier?.run.id ?? UUID().uuidString.lowercased()).prefix(8))"
        let previous = directory.appendingPathComponent(previousFolder, isDirectory: true)
        let archive = previous.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        try Data((earlier?.run.id ?? "unknown").utf8).write(to: archive.appendingPathComponent(archiveMark))
        for file in files {
            let target = archive.appendingPathComponent(file.lastPathComponent)
            if FileManager.default.fileExists(atPath: target.path) {
                guard wroteByChaos(target) else { continue }
                try FileManager.default.removeItem(at: target)
            }
            try FileManager.default.moveItem(at: file, to: target)
        }
        prune(previous)
        return archive
    }

    /// Keeps the newest ``keptPreviousRuns`` archives Chaos made in `previous`; of older
    /// ones removes the reports and the mark, and the folder if that left it empty.
    /// Anything else in `previous/` is never touched.
    static func prune(_ previous: URL) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: previous.path)) ?? []).sorted()
        let archives = names.filter { isArchive(previous.appendingPathComponent($0)) }
        for old in archives.dropLast(keptPreviousRuns) {
            let folder = previous.appendingPathComponent(old)
            for name in reportNames + [archiveMark] {
                let file = folder.appendingPathComponent(name)
                if name == archiveMark || wroteByChaos(file) { try? FileManager.default.removeItem(at: file) }
            }
            _ = rmdir(folder.path)  // only when empty
        }
    }

    /// A folder of `previous/` that Chaos made: it has the mark, or (made before the mark
    /// existed) it holds reports Chaos wrote and nothing else.
    static func isArchive(_ folder: URL) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(archiveMark).path) { return true }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return !contents.isEmpty && contents.allSatisfy { reportNames.contains($0) && wroteByChaos(folder.appendingPathComponent($0)) }
    }

    /// Whether Chaos wrote `file`, by its content: a JSON report with a schema version
    /// and a run id; the HTML or JUnit report's own header.
    package static func wroteByChaos(_ file: URL) -> Bool {
        switch file.lastPathComponent {
        case jsonFileName:
            guard let data = FileChunks.head(file.path, 512 << 20),
                  let header = try? JSONDecoder().decode(ReportHeader.self, from: Data(data)) else { return false }
            return header.schemaVersion > 0 && !header.run.id.isEmpty
        case htmlFileName:
            let text = String(decoding: FileChunks.head(file.path, 4_096) ?? [], as: UTF8.self)
            return text.contains(HTMLReportWriter.generatorMeta) || text.contains("<title>Chaos report · ")
        case junitFileName:
            let text = String(decoding: FileChunks.head(file.path, 8_192) ?? [], as: UTF8.self)
            return text.contains("<testsuites name=\"chaos\"") && text.contains("name=\"chaos.run.id\"")
        default:
            return false
        }
    }

    private struct ReportHeader: Decodable {
        struct Run: Decodable { var id: String }
        var schemaVersion: Int
        var run: Run
    }

    /// Foundation's error for a folder, said plainly ("permission denied", not a domain dump).
    private static func reason(_ error: any Error, at directory: URL) -> String {
        var parent = directory.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: parent.path), parent.path != "/" { parent = parent.deletingLastPathComponent() }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), !isFolder.boolValue {
            return "\(parent.path) is a file"
        }
        if access(parent.path, W_OK) != 0 { return "\(parent.path) is not writable (\(String(cString: strerror(errno))))" }
        return (error as NSError).localizedDescription
    }
}
