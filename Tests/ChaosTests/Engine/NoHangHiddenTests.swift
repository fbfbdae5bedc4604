import Chaos
import Foundation
import Testing

/// An app that stops answering for seconds is not hidden by a quick read later in the
/// case, nor by a trial the sweep would otherwise call inconclusive: `recovered-within`
/// also holds every launch and action to its bound, `responsive-within` does only that,
/// and every sweep trial is held to it (the seeds promise recovery within 5 s).
@Suite(.serialized) struct NoHangHiddenTests {
    /// The favourites list stalls while a delay is armed; the clear and a quick read
    /// after it would have measured a fast recovery.
    static func stallScenario(stall: String) -> String {
        """
        name: stall-between-reads
        summary: The list stalls while a delay is armed; a quick read after the clear does not hide it.
        system: favorites
        steps:
          - launch
          - do: favorites.list
          - fault: delay
            point: store/favorites/fetch
            for: \(stall)
          - do: favorites.list
          - clear: delay
          - do: favorites.list
        expect:
          - recovered-within: 1s
          - responsive-within: 1s
        """
    }

    func run(stall: String) throws -> (ChaosExecutable.Result, RunReport) {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("stall.yaml")
        try Self.stallScenario(stall: stall).write(to: file, atomically: true, encoding: .utf8)
        let reports = folder.url.appendingPathComponent("reports")
        let result = try ChaosExecutable.run(["run", file.path, "--report-dir", reports.path])
        return (result, try JSONReportWriter.read(from: reports.appendingPathComponent("chaos-report.json")))
    }

    @Test func aStallBeforeAQuickRecoveryFailsBothBounds() throws {
        let (stalled, report) = try run(stall: "1500ms")
        #expect(stalled.exitCode == 1, "\(stalled.stdout)")
        let failed = try #require(report.cases.first).expectations.filter { !$0.passed }
        #expect(failed.map(\.kind) == ["recovered-within", "responsive-within"], "\(failed.map(\.observed))")
        for expectation in failed {
            #expect(expectation.observed.contains("'favorites.list' took 15") && expectation.observed.contains("(step-4)"),
                    "\(expectation.observed)")
        }

        let (quick, _) = try run(stall: "10ms")
        #expect(quick.exitCode == 0, "\(quick.stdout)")
    }

    /// The crash-sweep trials that took 20 s (a read-only store beside a WAL SQLite
    /// reads nothing from, and a `-shm` the app may not write): each answer now comes
    /// at once, and the trial is judged on it.
    @Test(arguments: ["crash:after-writes:5:drop:1", "crash:at-sync:5:torn:1"])
    func theVisitsResetTrialsAnswerWithinTheSeedsBound(trial: String) throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "visits-reset-data", "--sweep", "crash", "--trial", trial,
                                              "--report-dir", reports.url.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let trialReport = try #require(report.cases.first, "\(result.stdout)")
        let responsive = try #require(trialReport.expectations.first { $0.kind == "responsive-within" })
        #expect(responsive.passed, "\(responsive.observed)")
        #expect(trialReport.durationMs < 5_000, "\(trialReport.durationMs) ms")
    }
}
