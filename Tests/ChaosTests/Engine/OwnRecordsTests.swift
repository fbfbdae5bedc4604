import Chaos
import Foundation
import Testing

/// Records the app makes by itself are not "unexpected": the journal's `demo` variant,
/// like GRDB's demo app, fills an empty journal with eight sample entries at launch.
/// A crash that cuts that insert leaves a relaunch that makes them again, with no action
/// of the case to explain them; Chaos learns what a clean launch makes and judges only
/// the rest. (That a record no clean launch makes is still unexpected is
/// AcknowledgedSetCheckTests'.)
@Suite(.serialized) struct OwnRecordsTests {
    static let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Journal/scenarios/journal-saves-fail.yaml").path

    func chaos(_ arguments: [String]) throws -> (result: ChaosExecutable.Result, report: RunReport) {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(arguments + [Self.scenario, "--target-exec", CheckTests.example("journal"), "--variant", "demo",
                                                          "--report-dir", reports.url.path], timeout: .seconds(300))
        return (result, try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName)))
    }

    @Test func theSampleEntriesOfAFirstLaunchAreTheAppsOwn() throws {
        let run = try chaos(["run"])
        #expect(run.result.exitCode == 0, "\(run.result.stdout)\n\(run.result.stderr)")
        let kept = try #require(run.report.cases.first?.expectations.first { $0.kind == "preserved" })
        #expect(kept.observed == "0 acknowledged, 0 lost, 0 unexpected, 0 recovered, 8 the app's own", "\(kept.observed)")
    }

    @Test func aFullCrashSweepOfSavesThatFailFindsNoUnexpectedRecord() throws {
        let sweep = try chaos(["explore", "--sweep", "crash"])
        #expect(sweep.result.exitCode == 0, "\(sweep.result.stdout)\n\(sweep.result.stderr)")
        #expect(sweep.result.stdout.contains("failures: none"), "\(sweep.result.stdout)")
        let covered = try #require(sweep.result.stdout.split(separator: "\n").first { $0.contains("crash points covered:") })
        let numbers = covered.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] >= 20, "every crash point, the launch's own writes included: \(covered)")
    }
}
