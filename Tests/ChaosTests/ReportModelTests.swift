import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportModelTests {
    @Test func summaryCountsVerdicts() {
        let summary = ReportSample.report.summary
        #expect(summary == RunSummary(passed: 1, deviated: 1, errored: 1, skipped: 1, interrupted: 0, durationMs: 4_700))
        #expect(summary.total == 4)
    }

    @Test func summaryDurationDefaultsToTheSumOfCases() {
        let summary = RunSummary(cases: [ReportSample.passed, ReportSample.deviated])
        #expect(summary.durationMs == 920 + 600)
    }

    @Test(arguments: [
        ([], 0),
        ([.passed, .passed], 0),
        ([.passed, .skipped], 0),
        ([.skipped], 0),
        ([.passed, .deviated], 1),
        ([.deviated, .errored], 2),
        ([.errored], 2),
        ([.deviated, .errored, .interrupted], 130),
        ([.passed, .interrupted], 130),
    ] as [([Verdict], Int32)])
    func exitCodePrecedenceIsInterruptedThenErroredThenDeviated(verdicts: [Verdict], exitCode: Int32) {
        let cases = verdicts.map { verdict in
            var report = ReportSample.passed
            report.verdict = verdict
            return report
        }
        #expect(RunReport(run: ReportSample.report.run, cases: cases).exitCode == exitCode)
    }

    @Test func exitCodeFollowsTheSummaryEvenWithoutAnInterruptedCase() {
        // A run stopped before its first case has no case to mark.
        var report = RunReport(run: ReportSample.report.run, cases: [])
        report.summary.interrupted = 1
        #expect(report.exitCode == 130)
    }

    @Test func onlyDeviatedInconclusiveErroredAndInterruptedAreFailures() {
        #expect(Verdict.allCases.filter(\.isFailure) == [.deviated, .inconclusive, .errored, .interrupted])
    }

    @Test func anInconclusiveCaseFailsTheGateUnlessAllowed() {
        var report = RunReport(run: ReportSample.report.run, cases: [])
        report.summary.inconclusive = 1
        #expect(report.exitCode == 1)
        #expect(report.exitCode(allowingInconclusive: true) == 0)
        report.summary.deviated = 1
        #expect(report.exitCode(allowingInconclusive: true) == 1, "a deviation is never allowed")
    }
}
