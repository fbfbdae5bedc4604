import Foundation
import Testing
@testable import Chaos

/// The edges a user meets first: a report folder another run wrote, merges that would
/// count what no run measured, baseline marks where CI shows them, the scratch of a
/// controller that was killed.
@Suite struct ReportEdgesTests {
    static func run(_ id: String, variant: String = "hardened", target: String = RunInfo.hostedTarget,
                    cases: [CaseReport] = [ReportSample.passed]) -> RunReport {
        var report = ReportSample.report
        report.run.id = id
        report.run.variant = variant
        report.run.target = target
        report.cases = cases
        return report
    }

    @Test func anotherRunsReportsAreMovedAsideNeverOverwritten() throws {
        let folder = try TemporaryFolder()
        let first = try ReportSet.write(Self.run("run-one-aaaaaaaa"), to: folder.url)
        #expect(first.archived == nil)
        let second = try ReportSet.write(Self.run("run-two-bbbbbbbb"), to: folder.url)
        let archived = try #require(second.archived)
        #expect(archived.deletingLastPathComponent().lastPathComponent == ReportSet.previousFolder)
        #expect(try JSONReportWriter.read(from: archived.appendingPathComponent(ReportSet.jsonFileName)).run.id == "run-one-aaaaaaaa")
        #expect(try JSONReportWriter.read(from: second.json).run.id == "run-two-bbbbbbbb")
        #expect(try ReportSet.write(Self.run("run-two-bbbbbbbb"), to: folder.url).archived == nil, "a run rewriting its own")
        for index in 0..<(ReportSet.keptPreviousRuns + 3) {
            try ReportSet.write(Self.run("run-\(index)-cccccccc"), to: folder.url)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("previous").path)
        #expect(kept.count == ReportSet.keptPreviousRuns)
    }

    @Test func aReportFolderKeepsEverythingChaosDidNotWriteAcrossTwentyRuns() throws {
        let folder = try TemporaryFolder()
        let previous = folder.url.appendingPathComponent(ReportSet.previousFolder)
        let important = previous.appendingPathComponent("0-important-folder")
        try FileManager.default.createDirectory(at: important, withIntermediateDirectories: true)
        var theirs = [folder.url.appendingPathComponent("notes.txt"), important.appendingPathComponent("keep.txt")]
        theirs += (1...3).map { previous.appendingPathComponent("scan-\($0).pdf") }
        for file in theirs { try Data("theirs".utf8).write(to: file) }
        // An archive of an older Chaos (no mark) is Chaos's; a folder that looks like one
        // but holds a file of the user's is not touched beyond Chaos's own reports.
        let older = previous.appendingPathComponent("0000-older-chaos")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        try JSONReportWriter.data(Self.run("older-run")).write(to: older.appendingPathComponent(ReportSet.jsonFileName))
        for index in 0..<20 { try ReportSet.write(Self.run("run-\(index)-dddddddd"), to: folder.url) }
        for file in theirs {
            #expect(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) was removed")
        }
        #expect(!FileManager.default.fileExists(atPath: older.path), "an older Chaos's archive is pruned like any")
        let archives = try FileManager.default.contentsOfDirectory(atPath: previous.path).filter { ReportSet.isArchive(previous.appendingPathComponent($0)) }
        #expect(archives.count == ReportSet.keptPreviousRuns, "\(archives)")
    }

    @Test func aFileUnderAReportNameThatChaosDidNotWriteIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        let junit = folder.url.appendingPathComponent(ReportSet.junitFileName)
        let theirs = "<?xml version=\"1.0\"?><testsuites name=\"pytest\"></testsuites>"
        try Data(theirs.utf8).write(to: junit)
        #expect(throws: ReportSet.Refusal.self) { try ReportSet.prepare(folder.url) }
        #expect(throws: ReportSet.Refusal.self) { try ReportSet.write(Self.run("run-x"), to: folder.url) }
        #expect(try String(contentsOf: junit, encoding: .utf8) == theirs)
        // Chaos's own reports are recognised by their content, an HTML page of another tool is not.
        let html = folder.url.appendingPathComponent(ReportSet.htmlFileName)
        try Data(HTMLReportWriter.html(Self.run("run-y")).utf8).write(to: html)
        #expect(ReportSet.wroteByChaos(html))
        try Data("<!DOCTYPE html><title>chaos-report</title>".utf8).write(to: html)
        #expect(!ReportSet.wroteByChaos(html))
    }

    @Test func aMergeOfTheSameCaseTwiceOrOfMixedRunsIsRefused() {
        let one = Self.run("a")
        #expect(throws: ReportMerge.Refusal.self) { try ReportMerge.merge([one, Self.run("b")]) }
        #expect(throws: ReportMerge.Refusal.self) { try ReportMerge.merge([one, Self.run("b", variant: "legacy", cases: [ReportSample.deviated])]) }
        #expect(throws: ReportMerge.Refusal.self) { try ReportMerge.merge([one, Self.run("b", target: "/x/app", cases: [ReportSample.deviated])]) }
        let merged = try? ReportMerge.merge([one, Self.run("b", cases: [ReportSample.deviated])])
        #expect(merged?.cases.count == 2)
    }

    @Test func baselineMarksAreInTheHTMLAndTheJUnit() {
        var deviated = ReportSample.deviated
        deviated.baseline = "new"
        var fixed = ReportSample.passed
        fixed.baseline = "fixed"
        let report = Self.run("a", cases: [deviated, fixed])
        let html = HTMLReportWriter.html(report)
        #expect(html.contains("<span class=\"baseline baseline-new\""))
        #expect(html.contains("<span class=\"baseline baseline-fixed\""))
        #expect(html.contains("new against the baseline"))
        let junit = JUnitReportWriter.xml(report)
        #expect(junit.contains("<property name=\"chaos.baseline\" value=\"new\"/>"))
        #expect(junit.contains("<property name=\"chaos.baseline\" value=\"fixed\"/>"))
        #expect(junit.contains("<failure message=\"[new] "))
    }

    @Test func scratchFoldersOfDeadOwnersAreRemovedAndOthersKept() throws {
        let root = try TemporaryFolder()
        // A pid that is surely gone: a child that has exited and been waited for.
        let child = try ChildProcess(executable: "/bin/true", arguments: [], environment: [:],
                                     stderrFile: root.url.appendingPathComponent("stderr"))
        child.closeInput()
        _ = child.waitForExit()
        let dead = root.url.appendingPathComponent("chaos-\(child.pid)-corrupted-db-1234abcd")
        let mine = try ScratchFolder.make(in: root.url, for: "mine")
        let other = root.url.appendingPathComponent("chaos-report-folder")
        for url in [dead, other] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try Data(ScratchFolder.markText(for: dead.lastPathComponent).utf8).write(to: dead.appendingPathComponent(ScratchFolder.markName))
        #expect(ScratchFolder.owner(of: dead.lastPathComponent) == child.pid)
        #expect(ScratchFolder.owner(of: "chaos-report-folder") == nil)
        #expect(ScratchFolder.removeAbandoned(in: root.url) == [dead.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: mine.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }

    /// A name is not a mark: a user's folder that happens to match the pattern of a dead
    /// owner's scratch (`chaos-2024-holiday-photos`: "2024" read as a pid) is never
    /// removed, nor one whose mark is a link, or names another folder.
    @Test func aFolderThatOnlyLooksLikeScratchIsNeverRemoved() throws {
        let root = try TemporaryFolder()
        let child = try ChildProcess(executable: "/bin/true", arguments: [], environment: [:],
                                     stderrFile: root.url.appendingPathComponent("stderr"))
        child.closeInput()
        _ = child.waitForExit()
        let photos = root.url.appendingPathComponent("chaos-\(child.pid)-holiday-photos")
        let linked = root.url.appendingPathComponent("chaos-\(child.pid)-linked-mark")
        let borrowed = root.url.appendingPathComponent("chaos-\(child.pid)-borrowed-mark")
        for url in [photos, linked, borrowed] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        try Data("beach.jpg".utf8).write(to: photos.appendingPathComponent("beach.jpg"))
        let real = root.url.appendingPathComponent("mark-elsewhere")
        try Data(ScratchFolder.markText(for: linked.lastPathComponent).utf8).write(to: real)
        try FileManager.default.createSymbolicLink(atPath: linked.appendingPathComponent(ScratchFolder.markName).path, withDestinationPath: real.path)
        try Data(ScratchFolder.markText(for: "chaos-1-other").utf8).write(to: borrowed.appendingPathComponent(ScratchFolder.markName))
        #expect(ScratchFolder.owner(of: photos.lastPathComponent) == child.pid, "the name alone would have it removed")
        #expect(ScratchFolder.removeAbandoned(in: root.url).isEmpty)
        #expect(FileManager.default.fileExists(atPath: photos.appendingPathComponent("beach.jpg").path))
        #expect(FileManager.default.fileExists(atPath: linked.path) && FileManager.default.fileExists(atPath: borrowed.path))
    }
}

/// A controller killed with SIGKILL leaves its scratch behind; the next run clears it.
@Suite struct KilledControllerTests {
    @Test func theNextRunRemovesTheScratchOfAKilledController() throws {
        let folder = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let scenario = try folder.write("long.yaml", """
            name: long
            summary: a case that waits long enough to be killed
            system: favorites
            steps:
              - launch
              - wait: 60s
            """)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.url.path
        let controller = try ChildProcess(executable: ChaosExecutable.path, arguments: ["run", scenario.path, "--report-dir", folder.url.path],
                                          environment: environment, stderrFile: folder.url.appendingPathComponent("stderr"))
        controller.closeInput()
        // Wait for its scratch folder to exist (bounded), then kill it where it stands.
        let deadline = ContinuousClock.now + .seconds(30)
        var owned: [String] = []
        while owned.isEmpty, ContinuousClock.now < deadline {
            owned = scratch.contents.filter { ScratchFolder.owner(of: $0) == controller.pid }
            if owned.isEmpty { _ = controller.readLine(deadline: .now + .milliseconds(20)) }
        }
        #expect(!owned.isEmpty, "the controller made no scratch folder")
        kill(controller.pid, SIGKILL)
        _ = controller.waitForExit()
        #expect(scratch.contents.contains(owned.first ?? "-"), "SIGKILL leaves it behind")

        let next = try ChaosExecutable.run(["run", "corrupted-db", "--report-dir", folder.url.path], temporaryDirectory: scratch.url)
        #expect(next.exitCode == 0, "\(next.stdout)")
        #expect(!scratch.contents.contains(owned.first ?? "-"), "left: \(scratch.contents)")
    }

    /// Wherever it lives (a sweep's /dev/shm, whatever TMPDIR says now), and whatever
    /// the next command is: `chaos list` removes a killed controller's scratch and ends
    /// the processes its cases left, found by their case mark.
    @Test func anyNextCommandClearsAKilledControllersShmScratchAndProcesses() throws {
        let work = try TemporaryFolder()
        let gone = try ChildProcess(executable: "/bin/true", arguments: [], environment: [:], stderrFile: work.url.appendingPathComponent("e"))
        gone.closeInput()
        _ = gone.waitForExit()
        let mark = "chaos-\(gone.pid)-sweep-1234abcd"
        let shm = URL(fileURLWithPath: "/dev/shm").appendingPathComponent(mark)
        let hasShm = access("/dev/shm", W_OK) == 0
        if hasShm {
            try FileManager.default.createDirectory(at: shm, withIntermediateDirectories: true)
            try Data(ScratchFolder.markText(for: mark).utf8).write(to: shm.appendingPathComponent(ScratchFolder.markName))
        }
        defer { try? FileManager.default.removeItem(at: shm) }
        let sleep = "987.\(UInt32.random(in: 100_000...999_999))"
        let orphan = try ChildProcess(executable: "/bin/sleep", arguments: [sleep], environment: [ProcessLeftovers.markVariable: mark],
                                      stderrFile: work.url.appendingPathComponent("sleep.stderr"))
        let listed = try ChaosExecutable.run(["list"], temporaryDirectory: work.url)
        #expect(listed.exitCode == 0)
        let (ended, killedByTheTest) = orphan.waitForExit(deadline: .now + .seconds(10))
        #expect(ended == .signaled(SIGKILL) && !killedByTheTest, "the process of a dead controller's case was ended")
        if hasShm { #expect(!FileManager.default.fileExists(atPath: shm.path), "\(shm.path) is left") }
    }
}
