import Chaos
import Foundation
import Testing

/// The app's swift-log records as evidence: the worker host bootstraps swift-log, each
/// record reaches the report beside its step, with its level, file, function and line,
/// in the JSON, the HTML timeline and the JUnit `system-out`; and the expectations on
/// them pass on the hardened app and deviate on the old code.
@Suite struct AppLogEvidenceTests {
    @Test func aRecoveredLaunchLeavesItsLogRecordsBesideItsStepInEveryReport() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "corrupted-db", "--report-dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let logs = try #require(report.cases.first?.logs)
        let error = try #require(logs.first { $0.level == "error" })
        #expect(error.file == "SystemUnderTest/AppStore+Recovery.swift" && error.function == "recover(_:reason:)" && error.line > 0)
        // Step 6 is the launch after the damage.
        #expect(logs.allSatisfy { $0.step == 6 }, "\(logs.map(\.step))")
        #expect(error.metadata?["reason"]?.contains("not a database") == true)
        let html = try String(contentsOf: folder.url.appendingPathComponent("chaos-report.html"), encoding: .utf8)
        #expect(html.contains("<tr class=\"ev-log\">") && html.contains("AppStore+Recovery.swift:\(error.line) in recover(_:reason:)"))
        let junit = try String(contentsOf: folder.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("log   error AppStore+Recovery.swift:\(error.line) The store is damaged"))
    }

    @Test func theLogExpectationsPassHardenedAndDeviateOnTheOldCode() throws {
        let scenarios = ["corrupted-db", "family-logs-private"]
        let hardened = try ChaosExecutable.runScenarios(scenarios, variant: "hardened")
        #expect(hardened.result.exitCode == 0, "\(hardened.result.stdout)")
        let legacy = try ChaosExecutable.runScenarios(scenarios, variant: "legacy")
        let failed = { (name: String, kind: String) in
            legacy.cases[name]?.expectations.first { $0.kind == kind && !$0.passed }
        }
        // The old launch traps before it can log; the old family code logs the user's family name.
        #expect(failed("corrupted-db", "logged") != nil)
        let leak = try #require(failed("family-logs-private", "private-logs"))
        #expect(leak.observed.contains("\"Okafor household\"") && leak.detail?.contains("LegacyFamilyCreation.swift:") == true,
                "\(leak.observed) \(leak.detail ?? "")")
    }

    /// A user's own target on sqlite-nio, which logs through swift-log and writes nothing
    /// for Chaos: its records are read all the same.
    @Test func aUsersOwnTargetsLogsAreReadWithNothingWrittenForChaos() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["check", "--only", "check-store-garbage-header", "--target-exec", CheckTests.example("ledger"),
                                              "--variant", "fixed", "--report-dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let logs = report.cases.first?.logs ?? []
        #expect(logs.contains { $0.level == "error" && $0.file == "LedgerCore/FixedLedger.swift" && $0.function == "open(at:)" },
                "\(logs.map(\.text))")
    }
}
