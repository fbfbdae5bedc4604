import Chaos
import Foundation
import Testing

/// Clock faults through the real `chaos` executable: the bundled scenarios, the
/// report, a host without libfaketime, and a check that can fail.
@Suite(.serialized) struct ClockScenarioTests {
    @Test(arguments: ["clock-jump-back", "settings-clock-jump-back"])
    func passesOnHardenedAndTrapsOnLegacy(_ name: String) throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", name, "--report-dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let only = try #require(report.cases.first)
        #expect(only.verdict == .passed)
        let jumps = only.injections.filter { $0.kind == "clock-jump" }
        #expect(jumps.count >= 2)
        #expect(jumps.allSatisfy { $0.mechanism == InjectionRecord.Mechanism.libfaketime && $0.target == "clock" })
        #expect(jumps.first?.detail == "the app's clock is 1h behind real time (libfaketime: \"-3600\")")

        let legacy = try ChaosExecutable.run(["run", name, "--variant", "legacy", "--report-dir", folder.url.path])
        #expect(legacy.exitCode == 1, "the legacy store traps on the corrupted file: \(legacy.stdout)")
        let legacyReport = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        #expect(legacyReport.cases.first?.trap != nil)
    }

    @Test func aHostWithoutLibfaketimeSkipsClockCasesWithTheReason() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "clock-jump-back", "--report-dir", folder.url.path],
                                             environment: ["CHAOS_LIBFAKETIME": "/nonexistent/libfaketime.so.1"])
        #expect(result.exitCode == 0, "a skipped case does not fail the gate")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.verdict == .skipped)
        #expect(report.cases.first?.error?.contains("need libfaketime") == true)
        #expect(report.summary.skipped == 1)
    }

    @Test func aMissingShimIsAHarnessError() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "clock-jump-back", "--report-dir", folder.url.path],
                                             environment: ["CHAOS_TIMERFD_SHIM": "/nonexistent/libChaosTimerfdShim.so"])
        #expect(result.exitCode == 2, "\(result.stdout)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.verdict == .errored)
        #expect(report.cases.first?.error?.contains("timerfd shim") == true)
    }

    /// A frozen clock is exact, so a `state:` expectation can pin it: frozen mid-case,
    /// then jumped an hour while the app runs, it reads 13:00; the check deviates on
    /// any other reading (12:00 is what a jump step that did nothing would leave).
    @Test(arguments: [("2031-06-01T13:00:00.000Z", Verdict.passed), ("2031-06-01T12:00:00.000Z", Verdict.deviated)])
    func aFrozenAndJumpedClockMidCaseIsWhatTheAppReads(_ expected: String, _ verdict: Verdict) throws {
        let folder = try TemporaryFolder()
        let scenario = try folder.write("frozen.yaml", """
            name: frozen-clock
            summary: The clock stops mid-case; the app reads the frozen instant, and its sleeps still end.
            system: favorites
            steps:
              - launch
              - do: favorites.add
              - fault: clock-freeze
                at: 2031-06-01 12:00:00
              - do: clock.sleep
                with: { ms: 200 }
              - fault: clock-jump
                by: +1h
              - do: favorites.add
            expect:
              - preserved: acknowledged
              - state: { probe: clock.now, equals: "\(expected)" }
              - state: { probe: clock.sqlite-now, equals: "2031-06-01 13:00:00" }
            """)
        let result = try ChaosExecutable.run(["run", scenario.path, "--report-dir", folder.url.path])
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let only = try #require(report.cases.first)
        #expect(only.verdict == verdict, "\(result.stdout)")
        let details = only.injections.map(\.detail)
        #expect(details.count == 2)
        #expect(details.first?.hasPrefix("the app's clock is frozen at 2031-06-01 12:00:00Z") == true)
        #expect(details.last?.hasPrefix("the app's clock is frozen at 2031-06-01 13:00:00Z") == true)
        #expect(only.steps.allSatisfy { $0.outcome == .ok }, "the sleep under a frozen clock ended")
    }
}
