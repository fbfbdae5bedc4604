import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// `logged:`, `not-logged:` and `private-logs`: parsed with errors that say what is
/// wrong, and judged against the app's log records.
@Suite struct LogExpectationTests {
    static func entry(_ level: String, _ message: String, file: String = "SystemUnderTest/AppStore.swift", line: Int = 120,
                      metadata: [String: String]? = nil) -> LogEntry {
        LogEntry(AppLogRecord(level: level, message: message, label: "app", source: "SystemUnderTest", file: file,
                              function: "open()", line: line, metadata: metadata), atMs: 10, step: 2)
    }

    static func parsed(_ expect: String) throws -> [Chaos.Expectation] {
        try ScenarioLoader.load(yaml: ScenarioFixtures.scenario(steps: "  - launch", expect: expect), file: "t.yaml", baseDirectory: nil)
            .expectations.map(\.kind)
    }

    @Test func theThreeKeywordsParse() throws {
        let kinds = try Self.parsed("""
              - logged: { level: error, message: set aside, site: AppStore.swift }
              - not-logged: { level: critical }
              - private-logs
            """)
        #expect(kinds.contains(.logged(LogPattern(level: "error", message: "set aside", site: "AppStore.swift"))))
        #expect(kinds.contains(.notLogged(LogPattern(level: "critical"))))
        #expect(kinds.contains(.privateLogs))
    }

    @Test(arguments: [
        ("  - logged: { levl: error }", "unknown key 'levl' in expectation 'logged'"),
        ("  - logged: { level: fatal }", "fatal"),
        ("  - logged: {}", "needs at least one of: level, message, site"),
        ("  - logged: { message: \"\" }", "'message' in expectation 'logged' is empty"),
        ("  - logged", "needs a value"),
        ("  - private-logs: true", "takes no value"),
    ])
    func aMalformedOneIsNamedWithWhereItIs(line: String, says: String) {
        let error = ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - launch", expect: line))
        #expect(error?.description.contains(says) == true, "\(error?.description ?? "loaded")")
        #expect(error?.description.contains("t.yaml:") == true)
    }

    @Test func aPatternMatchesItsLevelAndMoreSevereAMessagePartAndASitePrefix() {
        let error = Self.entry("error", "The store is damaged: setting it aside")
        #expect(LogPattern(level: "warning").matches(error))
        #expect(!LogPattern(level: "critical").matches(error))
        #expect(LogPattern(message: "SETTING IT").matches(error))
        #expect(LogPattern(site: "AppStore.swift:12").matches(error))
        #expect(!LogPattern(site: "Other.swift").matches(error))
    }

    func judge(_ expectation: Chaos.Expectation, logs: [LogEntry], _ build: (inout CaseEvidence) -> Void = { _ in }) -> ExpectationResult {
        var evidence = CaseEvidence()
        evidence.logs = logs
        build(&evidence)
        return ExpectationEvaluator.evaluate(expectation, evidence: evidence)
    }

    @Test func loggedPassesOnAMatchAndFailsSayingWhatWasLogged() {
        let logs = [Self.entry("info", "Launched"), Self.entry("error", "setting it aside")]
        let found = judge(.logged(LogPattern(level: "error")), logs: logs)
        #expect(found.passed && found.observed.contains("AppStore.swift:120 setting it aside"), "\(found.observed)")
        let missing = judge(.logged(LogPattern(level: "critical")), logs: logs)
        #expect(!missing.passed && missing.observed.contains("2 records logged (1 error, 1 info)"), "\(missing.observed)")
        #expect(judge(.logged(LogPattern(level: "error")), logs: []).observed == "nothing logged")
        #expect(!judge(.notLogged(LogPattern(level: "error")), logs: logs).passed)
        #expect(judge(.notLogged(LogPattern(level: "critical")), logs: logs).passed)
    }

    @Test func withoutLogsReadEveryLogExpectationFailsSayingWhy() {
        for expectation in [Chaos.Expectation.logged(LogPattern(level: "error")), .notLogged(LogPattern(level: "error")), .privateLogs] {
            let result = judge(expectation, logs: []) { $0.logsNotRead = "the target bootstraps swift-log itself" }
            #expect(!result.passed && result.detail == "the target bootstraps swift-log itself")
        }
    }

    @Test func privateLogsFindsWhatTheUserTypedOrSavedInAMessageOrMetadata() {
        let saved: (inout CaseEvidence) -> Void = {
            $0.acknowledged = ["favorites:1"]
            $0.finalSnapshot = ["favorites": ["favorites:1": #"[id:1 name:"Rose garden" rank:3]"#, "favorites:2": #"[id:2 name:"Never acked"]"#]]
            $0.userInput = [UserContent(key: "family.create name", text: "Okafor household")]
        }
        let clean = judge(.privateLogs, logs: [Self.entry("info", "Saved favourite 1", metadata: ["id": "1"])], saved)
        #expect(clean.passed, "\(clean.observed)")
        let inMetadata = judge(.privateLogs, logs: [Self.entry("info", "Saved", metadata: ["name": "Rose garden"])], saved)
        #expect(!inMetadata.passed && inMetadata.observed.contains("\"Rose garden\" of favorites:1"), "\(inMetadata.observed)")
        let typed = judge(.privateLogs, logs: [Self.entry("info", "Created family Okafor household")], saved)
        #expect(!typed.passed && typed.observed.contains("family.create name"))
        // A record never acknowledged is not the user's saved data.
        #expect(judge(.privateLogs, logs: [Self.entry("info", "Never acked")], saved).passed)
    }

    @Test func aRowsValuesAreItsQuotedStringsOrItsFields() {
        #expect(UserContent.values(in: #"[id:1 name:"Rose" note:"a, b"]"#) == ["Rose", "a, b"])
        #expect(UserContent.values(in: "id=3|title=Buy milk|done=false") == ["3", "Buy milk", "false"])
        #expect(UserContent(key: "k", text: "1234").isTelling == false)
        #expect(UserContent(key: "k", text: "Rose").isTelling)
    }
}
