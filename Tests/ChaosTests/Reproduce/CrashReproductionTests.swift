import Chaos
import Foundation
import Testing

/// A crash log in, a scenario out, on any target, with no scenario of the user's: the
/// storage catalog as `chaos check` runs it on that target first (never another
/// target's scenarios), then a hunt aimed at the crash.
@Suite(.serialized) struct CrashReproductionTests {
    /// The log a user holds: the runtime's `Fatal error` line and its backtrace, taken
    /// from a real trap of `target` in `scenario`.
    static func crashLog(of arguments: [String], in folder: TemporaryFolder) throws -> URL {
        let reports = folder.url.appendingPathComponent("first")
        _ = try ChaosExecutable.run(arguments + ["--report-dir", reports.path])
        let report = try JSONReportWriter.read(from: reports.appendingPathComponent("chaos-report.json"))
        let trap = try #require(report.cases.compactMap(\.trap).first)
        let log = folder.url.appendingPathComponent("crash.log")
        let site = try #require(trap.site)
        try Data("App/\(site): Fatal error: \(trap.message ?? "")\n\(trap.backtrace ?? "")\n".utf8).write(to: log)
        return log
    }

    @Test func theNotesCrashIsFoundInTheStorageCatalogWithNoScenarioWritten() throws {
        let folder = try TemporaryFolder()
        let notes = ChaosExecutable.built("chaos-example-notes")
        let log = try Self.crashLog(of: ["check", "--target-exec", notes, "--variant", "fragile", "--only", "check-store-garbage-header"], in: folder)
        let result = try ChaosExecutable.run(["reproduce", "--from-crash", log.path, "--target-exec", notes, "--variant", "fragile",
                                              "-j", "2", "--report-dir", folder.url.appendingPathComponent("again").path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("check-store-garbage-header: trap SIGILL at FragileNotesRepository.swift:14 — same site and same message"),
                "\(result.stdout)")
        #expect(result.stdout.contains("reproduce: chaos check --only check-store-garbage-header --seed 1 --variant fragile --target-exec"))
        #expect(!result.stderr.contains("error:"), "no other target's scenario is validated against this one: \(result.stderr)")
    }

    /// A log with nothing to match (no `Fatal error` line, no frame in project code) is
    /// bad input: 64, saying so. (A crash nothing reproduces exits 0: GateWorkflowTests.)
    @Test func aLogWithNothingToMatchIsBadUsage() throws {
        let folder = try TemporaryFolder()
        let empty = try folder.write("empty.log", "the app went away\n")
        let bad = try ChaosExecutable.run(["reproduce", "--from-crash", empty.path, "--target-exec", ChaosExecutable.built("chaos-example-uploads"),
                                           "--report-dir", folder.url.appendingPathComponent("reports").path])
        #expect(bad.exitCode == 64 && bad.stderr.contains("nothing to match"), "\(bad.stdout)\n\(bad.stderr)")
    }

    /// A trap the catalog never reaches (a tag renamed to nothing): the aimed hunt finds
    /// it, shrinks it and writes it where the report is; `chaos run` of that file traps
    /// at the same line.
    @Test func aCrashNoCatalogCaseReachesIsFoundByAnAimedHunt() throws {
        let folder = try TemporaryFolder()
        let tags = ChaosExecutable.built("chaos-test-tags")
        let scenario = folder.url.appendingPathComponent("rename.yaml")
        try Data("name: rename\nsummary: A tag renamed to nothing.\nsystem: storage\nsteps:\n  - launch\n  - do: tags.rename\n    with: { to: \"\" }\nexpect:\n  - no-trap\n".utf8)
            .write(to: scenario)
        let log = try Self.crashLog(of: ["run", scenario.path, "--target-exec", tags], in: folder)
        let reports = folder.url.appendingPathComponent("again")
        let result = try ChaosExecutable.run(["reproduce", "--from-crash", log.path, "--target-exec", tags, "--budget", "2m", "-j", "2",
                                              "--report-dir", reports.path], timeout: .seconds(200))
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("no catalog case traps that way: hunting for it"), "\(result.stdout)")
        let report = try JSONReportWriter.read(from: reports.appendingPathComponent("chaos-report.json"))
        let finding = try #require(report.hunt?.findings.first)
        #expect(finding.failure.hasPrefix("trap at TagsTarget.swift:46"), "\(finding.failure)")
        #expect(!finding.cutShort && finding.stepsAfter <= 3, "\(finding.yaml)")
        #expect(result.stdout.contains(finding.reproduce))
        let again = try ChaosExecutable.run(["run", finding.file, "--target-exec", tags, "--report-dir", folder.url.appendingPathComponent("run").path])
        #expect(again.exitCode == 1 && again.stdout.contains("TagsTarget.swift:46"), "\(again.stdout)")
    }
}
