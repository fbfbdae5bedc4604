import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

@Suite struct ReportJSONTests {
    func object(_ report: RunReport = ReportSample.report) throws -> [String: Any] {
        let data = try JSONReportWriter.data(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func cases(_ root: [String: Any]) throws -> [[String: Any]] {
        try #require(root["cases"] as? [[String: Any]])
    }

    @Test func hasEveryDocumentedFieldUnderItsDocumentedName() throws {
        let root = try object()
        #expect(Set(root.keys) == ["schemaVersion", "run", "summary", "cases", "sweep", "hunt"])
        #expect(root["schemaVersion"] as? Int == 1)

        let run = try #require(root["run"] as? [String: Any])
        #expect(Set(run.keys) == ["id", "startedAt", "chaosVersion", "seed", "variant", "command", "target"])
        #expect(run["seed"] is NSNull)
        #expect(run["target"] as? String == "built-in")

        let summary = try #require(root["summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["passed", "deviated", "inconclusive", "errored", "skipped", "interrupted", "durationMs"])
        #expect(summary["deviated"] as? Int == 1)

        let caseKeys: Set<String> = [
            "scenario", "summary", "system", "scenarioFile", "scenarioHash", "seed", "variant", "verdict",
            "durationMs", "recoveryMs", "recoveryStartMs", "baseline", "options", "steps", "injections", "faults", "expectations", "trap", "reproduce",
            "error",
            "workerLaunches", "leftBehind", "logs", "logsDropped", "explanation",
        ]
        for entry in try cases(root) {
            #expect(Set(entry.keys) == caseKeys)
        }
        let deviated = try cases(root)[1]
        #expect(deviated["verdict"] as? String == "deviated")
        #expect(deviated["seed"] as? Int == 6745)
        #expect(deviated["reproduce"] as? String == ReportSample.deviated.reproduce)

        let step = try #require((deviated["steps"] as? [[String: Any]])?.first)
        #expect(Set(step.keys) == ["index", "label", "startMs", "durationMs", "outcome", "detail"])
        let injection = try #require((deviated["injections"] as? [[String: Any]])?.first)
        #expect(Set(injection.keys) == ["kind", "target", "detail", "atMs", "count", "mechanism"])
        #expect(injection["count"] as? Int == 3)
        #expect(injection["mechanism"] as? String == "fault-point")
        let expectation = try #require((deviated["expectations"] as? [[String: Any]])?.first)
        #expect(Set(expectation.keys) == ["kind", "label", "passed", "expected", "observed", "detail"])
        #expect(expectation["passed"] as? Bool == false)
        let trap = try #require(deviated["trap"] as? [String: Any])
        #expect(Set(trap.keys) == ["signal", "signalName", "message", "site", "backtrace"])
        #expect(trap["signal"] as? Int == 4)
        #expect(trap["message"] as? String == ReportSample.hostileMessage)
    }

    @Test func writesAbsentValuesAsExplicitNulls() throws {
        let root = try object()
        let passed = try cases(root)[0]
        #expect(passed["trap"] is NSNull)
        #expect(passed["error"] is NSNull)
        #expect(passed["recoveryMs"] as? Int == 84)
        let deviated = try cases(root)[1]
        #expect(deviated["recoveryMs"] is NSNull)
        #expect(deviated["recoveryStartMs"] is NSNull)
        #expect(deviated["error"] is NSNull)
        let firstStep = try #require((passed["steps"] as? [[String: Any]])?.first)
        #expect(firstStep["detail"] is NSNull)
        let injection = try #require((passed["injections"] as? [[String: Any]])?.first)
        #expect(injection["count"] is NSNull)
        let expectation = try #require((passed["expectations"] as? [[String: Any]])?.first)
        #expect(expectation["detail"] is NSNull)

        var bareTrap = ReportSample.deviated
        bareTrap.trap = TrapRecord(signal: 11, signalName: "SIGSEGV")
        let trap = try #require(try cases(object(RunReport(run: ReportSample.report.run, cases: [bareTrap])))[0]["trap"] as? [String: Any])
        #expect(trap["message"] is NSNull)
        #expect(trap["site"] is NSNull)
        #expect(trap["backtrace"] is NSNull)
    }

    @Test func isPrettyPrintedWithSortedKeysAndUnescapedSlashes() throws {
        let text = String(decoding: try JSONReportWriter.data(ReportSample.report), as: UTF8.self)
        #expect(text.contains(#""recoveryMs" : null"#))
        #expect(text.contains(#""trap" : null"#))
        #expect(text.contains(#""scenarioFile" : "/home/dev/scenarios/network-down.yaml""#))
        #expect(text.hasSuffix("}\n"))
        let topLevelKeys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(topLevelKeys == ["cases", "hunt", "run", "schemaVersion", "summary", "sweep"])
    }

    @Test func roundTrips() throws {
        var extreme = ReportSample.passed
        extreme.seed = .max
        var report = ReportSample.report
        report.cases.append(extreme)
        report.run.seed = .max
        let data = try JSONReportWriter.data(report)
        #expect(try JSONReportWriter.decode(data) == report)
        #expect(try JSONReportWriter.data(JSONReportWriter.decode(data)) == data)
    }

    @Test func readsFromAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-report-\(UInt64.random(in: 0...UInt64.max)).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try JSONReportWriter.data(ReportSample.report).write(to: url)
        #expect(try JSONReportWriter.read(from: url) == ReportSample.report)
    }

    @Test func refusesANewerSchema() throws {
        var report = ReportSample.report
        report.schemaVersion = RunReport.currentSchemaVersion + 1
        let data = try JSONReportWriter.data(report)
        #expect(throws: JSONReportWriter.UnsupportedSchemaVersion(found: 2)) {
            try JSONReportWriter.decode(data)
        }
    }

    @Test func acceptsMissingOptionalKeys() throws {
        let json = """
            {"schemaVersion": 1,
             "run": {"id": "r", "startedAt": "2025-06-01T09:30:00Z", "chaosVersion": "0.1.0", "variant": "hardened",
                     "command": "chaos run x", "target": "built-in"},
             "summary": {"passed": 0, "deviated": 0, "errored": 0, "skipped": 0, "interrupted": 0, "durationMs": 0},
             "cases": []}
            """
        let report = try JSONReportWriter.decode(Data(json.utf8))
        #expect(report.run.seed == nil)
    }
}
