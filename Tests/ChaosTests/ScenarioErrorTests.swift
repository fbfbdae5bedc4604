import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Each kind of bad scenario gives a located error at the exact line and column, and
/// suggests the closest name for an unknown one.
@Suite("Scenario loader: errors")
struct ScenarioErrorTests {
    /// Loads `yaml` and checks where the error points.
    func expectError(
        _ yaml: String, line: Int, column: Int, contains text: String, suggestion: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let error = ScenarioFixtures.error(yaml) else {
            Issue.record("expected an error containing '\(text)'", sourceLocation: sourceLocation)
            return
        }
        #expect(error.file == "t.yaml", sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.column == column, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        #expect(error.suggestion == suggestion, "\(error)", sourceLocation: sourceLocation)
    }

    @Test func unknownTopLevelKey() {
        expectError(ScenarioFixtures.designExample(replacingLine: 4, with: "sead: 1"), line: 4, column: 1, contains: "unknown key 'sead'", suggestion: "seed")
    }

    @Test func unknownKeyInsideAFaultStep() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 13, with: "    fiel: store"),
            line: 13, column: 5, contains: "unknown key 'fiel' in fault 'corrupt-file'; expected one of: file, how, bytes", suggestion: "file"
        )
    }

    @Test func unknownStep() {
        expectError(ScenarioFixtures.designExample(replacingLine: 7, with: "  - lunch"), line: 7, column: 5, contains: "unknown step 'lunch'", suggestion: "launch")
        expectError(ScenarioFixtures.designExample(replacingLine: 10, with: "  - chekpoint: before-fault"), line: 10, column: 5, contains: "unknown step 'chekpoint'", suggestion: "checkpoint")
        expectError(ScenarioFixtures.designExample(replacingLine: 7, with: "  - reboot-the-universe"), line: 7, column: 5, contains: "unknown step", suggestion: nil)
    }

    @Test func unknownFaultKindSuggestsTheClosest() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 12, with: "  - fault: corupt-file"),
            line: 12, column: 12, contains: "unknown fault kind 'corupt-file'", suggestion: "corrupt-file"
        )
    }

    @Test func unknownExpectation() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 19, with: "  - fallbak: restored-from-backup"),
            line: 19, column: 5, contains: "unknown expectation 'fallbak'", suggestion: "fallback"
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 18, with: "  - no-trapp"),
            line: 18, column: 5, contains: "unknown expectation 'no-trapp'", suggestion: "no-trap"
        )
    }

    @Test func unknownFallbackModeAndSurfaceLevel() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 19, with: "  - fallback: inmemory"),
            line: 19, column: 15, contains: "unknown fallback mode 'inmemory'", suggestion: "in-memory"
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 22, with: "  - surfaced: warn"),
            line: 22, column: 15, contains: "unknown surface level 'warn'", suggestion: nil
        )
    }

    @Test func badDuration() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 20, with: "  - recovered-within: 5 sec"),
            line: 20, column: 23, contains: "expected a duration like 250ms, 5s, 1.5s, 2m or 1h, found '5 sec'"
        )
        expectError(ScenarioFixtures.designExample(replacingLine: 5, with: "timeout: 11m"), line: 5, column: 10, contains: "at most 10m")
        expectError(ScenarioFixtures.designExample(replacingLine: 5, with: "timeout: -5s"), line: 5, column: 10, contains: "a sign is not allowed here")
    }

    @Test func badPercentage() {
        let yaml = ScenarioFixtures.scenario(steps: """
              - launch
              - fault: throw
                point: store/favorites/fetch
                probability: 5 percent
            """)
        expectError(yaml, line: 8, column: 18, contains: "expected a percentage from 0% to 100% like 5% or 0.5%, found '5 percent'")
        let over = yaml.replacingOccurrences(of: "5 percent", with: "150%")
        expectError(over, line: 8, column: 18, contains: "found '150%'")
        let zero = yaml.replacingOccurrences(of: "5 percent", with: "0%")
        expectError(zero, line: 8, column: 18, contains: "never fire")
    }

    @Test func aStringWhereAnIntegerIsRequired() {
        let yaml = ScenarioFixtures.scenario(steps: """
              - launch
              - do: favorites.add
                repeat: abc
            """)
        expectError(yaml, line: 7, column: 13, contains: "'repeat' of step 'do: favorites.add': expected an integer, found 'abc'")
        expectError(yaml.replacingOccurrences(of: "abc", with: "0"), line: 7, column: 13, contains: "must be from 1 to 100000, found 0")
        expectError(ScenarioFixtures.designExample(replacingLine: 4, with: "seed: many"), line: 4, column: 7, contains: "'seed': expected an integer")
        expectError(ScenarioFixtures.designExample(replacingLine: 4, with: "seed: -1"), line: 4, column: 7, contains: "'seed': expected an integer")
    }

    @Test func aMappingWhereAStringIsRequired() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 1, with: "name: {a: b}"),
            line: 1, column: 7, contains: "'name': expected a kebab-case name like corrupted-db, found a mapping"
        )
    }

    @Test func missingRequiredKeys() {
        expectError(ScenarioFixtures.designExample(replacingLine: 2, with: ""), line: 1, column: 1, contains: "the scenario needs 'summary:'")
        expectError(ScenarioFixtures.designExample(replacingLine: 14, with: ""), line: 12, column: 5, contains: "fault 'corrupt-file' needs 'how:'")
        let noSteps = ScenarioFixtures.designExample.components(separatedBy: "\n").enumerated()
            .filter { !(6...16).contains($0.offset + 1) }.map(\.element).joined(separator: "\n")
        expectError(noSteps, line: 1, column: 1, contains: "needs 'steps:'")
        expectError(ScenarioFixtures.designExample(replacingLine: 6, with: "steps: []").components(separatedBy: "\n").prefix(6).joined(separator: "\n"),
                    line: 6, column: 8, contains: "'steps' is empty")
    }

    @Test func yamlSyntaxErrorKeepsLineColumnAndCaret() {
        let yaml = ScenarioFixtures.designExample(replacingLine: 2, with: "summary: a: b")
        guard let error = ScenarioFixtures.error(yaml) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.line == 2)
        #expect(error.column == 11)
        #expect(error.message.hasPrefix("YAML syntax error: mapping values are not allowed in this context"))
        #expect(error.snippet == "summary: a: b\n          ^")
        #expect(error.description == "t.yaml:2:11: error: \(error.message)\nsummary: a: b\n          ^")
    }

    @Test func unclosedFlowMappingIsASyntaxError() {
        let yaml = ScenarioFixtures.designExample(replacingLine: 9, with: "    with: { count: 25")
        guard let error = ScenarioFixtures.error(yaml) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.message.hasPrefix("YAML syntax error"))
        // libyaml notices at the next mapping's ':' that the flow mapping was never closed.
        #expect(error.line == 10)
        #expect(error.column == 15)
    }

    @Test func duplicateKeysAreAnError() {
        let yaml = ScenarioFixtures.designExample(replacingLine: 5, with: "seed: 2")
        expectError(yaml, line: 4, column: 1, contains: "duplicate key 'seed'")
    }

    @Test func preservedOfAnUndeclaredCheckpoint() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 21, with: "  - preserved: before-falt"),
            line: 21, column: 5, contains: "'preserved: before-falt' names no checkpoint of the steps (declared: before-fault)", suggestion: "before-fault"
        )
    }

    @Test func duplicateCheckpointNames() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 16, with: "  - checkpoint: before-fault"),
            line: 16, column: 5, contains: "checkpoint 'before-fault' is already declared at line 10"
        )
    }

    @Test func appTouchingStepsNeedALaunch() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 7, with: "  - wait: 1s"),
            line: 8, column: 5, contains: "'do' needs a running app: add '- launch' before"
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 15, with: "  - wait: 1s"),
            line: 16, column: 5, contains: "'do' needs a running app, but it ended at line 11"
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 11, with: "  - launch"),
            line: 11, column: 5, contains: "the app is already running (launched at line 7)"
        )
    }

    @Test func triggerKeysOnAFileFault() {
        expectError(
            ScenarioFixtures.designExample(replacingLine: 13, with: "    times: 3"),
            line: 13, column: 5, contains: "'times' is a trigger key, but corrupt-file acts once"
        )
    }

    @Test func stepShapeErrors() {
        expectError(ScenarioFixtures.designExample(replacingLine: 10, with: "  - checkpoint"), line: 10, column: 5, contains: "step 'checkpoint' needs a value")
        expectError(ScenarioFixtures.designExample(replacingLine: 11, with: "  - stop: now"), line: 11, column: 5, contains: "'stop' takes no value")
        expectError(
            ScenarioFixtures.designExample(replacingLine: 13, with: "    wait: 1s"),
            line: 13, column: 5, contains: "a step has one kind, but this one has both 'fault' and 'wait'"
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 14, with: "    how: garbage"),
            line: 14, column: 10, contains: "unknown 'how' value 'garbage'", suggestion: nil
        )
        expectError(
            ScenarioFixtures.designExample(replacingLine: 14, with: "    how: flip-byte"),
            line: 14, column: 10, contains: "unknown 'how' value 'flip-byte'", suggestion: "flip-bytes"
        )
        // Which systems there are is the target's to say (CheckedBeforeTheRunTests); a file only needs a kebab-case name.
        expectError(ScenarioFixtures.designExample(replacingLine: 3, with: "system: Favourites"), line: 3, column: 9, contains: "kebab-case")
        expectError(ScenarioFixtures.designExample(replacingLine: 1, with: "name: Corrupted DB"), line: 1, column: 7, contains: "'name' must be kebab-case")
        expectError(ScenarioFixtures.designExample(replacingLine: 19, with: "  - integrity: fine"), line: 19, column: 16, contains: "'integrity' expects 'ok'")
        expectError(ScenarioFixtures.designExample(replacingLine: 16, with: "  - clear: corrupt"), line: 16, column: 12, contains: "unknown fault kind 'corrupt'")
        expectError(ScenarioFixtures.designExample(replacingLine: 19, with: "  - no-trap"), line: 19, column: 5, contains: "'no-trap' is already expected at line 18")
    }

    @Test func emptyFile() {
        expectError("", line: 1, column: 1, contains: "the scenario is empty")
        expectError("# only a comment\n\n", line: 1, column: 1, contains: "the scenario is empty")
    }

    @Test func listAtTheTopLevel() {
        expectError("- launch\n- stop\n", line: 1, column: 1, contains: "a scenario is a mapping of keys (name:, summary:, system:, steps:, ...), found a list at the top level")
        expectError("just words", line: 1, column: 1, contains: "found 'just words' at the top level")
    }

    @Test func missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/chaos/scenario.yaml")
        do {
            _ = try ScenarioLoader.load(contentsOf: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "/nonexistent/chaos/scenario.yaml")
            #expect(error.line == 0)
            #expect(error.column == 0)
            #expect(error.description == "/nonexistent/chaos/scenario.yaml: error: no such scenario file")
        }
    }

    @Test func nonUTF8File() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("latin1.yaml")
        var bytes = Array("name: t\nsummary: caf".utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array("\n".utf8)
        try Data(bytes).write(to: url)
        do {
            _ = try ScenarioLoader.load(contentsOf: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 13)
            #expect(error.message.contains("not UTF-8 text (invalid byte 0xE9 at byte offset 20)"))
        }
    }

    @Test func aControlCharacterIsAReaderError() {
        guard let error = ScenarioFixtures.error("name: a\nsummary: b\u{1}c\n") else {
            Issue.record("expected an error")
            return
        }
        #expect(error.line == 2)
        #expect(error.column == 11)
    }

    @Test func aReplacementFileThatDoesNotExist() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = ScenarioFixtures.scenario(steps: "  - fault: replace-file\n    with: missing.db")
        let error = ScenarioFixtures.error(yaml, baseDirectory: directory)
        #expect(error?.line == 6)
        #expect(error?.column == 11)
        #expect(error?.message.contains("the replacement file 'missing.db' does not exist") == true)
    }

    @Test func descriptionFormat() {
        let error = ScenarioError(file: "a.yaml", line: 3, column: 7, message: "unknown step 'lunch'", suggestion: "launch")
        #expect(error.description == "a.yaml:3:7: error: unknown step 'lunch' (did you mean 'launch'?)")
        let whole = ScenarioError(file: "a.yaml", line: 0, column: 0, message: "no such scenario file")
        #expect(whole.description == "a.yaml: error: no such scenario file")
    }

    @Test func everyLocatedErrorCarriesASnippet() {
        let error = ScenarioFixtures.error(ScenarioFixtures.designExample(replacingLine: 12, with: "  - fault: corupt-file"))
        #expect(error?.snippet == "  - fault: corupt-file\n           ^")
        #expect(error?.description.hasPrefix("t.yaml:12:12: error: unknown fault kind 'corupt-file'; expected one of: ") == true)
        #expect(error?.description.contains("(did you mean 'corrupt-file'?)\n  - fault: corupt-file\n           ^") == true)
    }

    @Test func tabsAndSecondDocumentsGetAPlainExplanation() {
        expectError("name: t\nsteps:\n\t- launch\n", line: 3, column: 1, contains: "YAML indents with spaces, not tabs")
        expectError("name: t\n---\nname: u\n", line: 2, column: 1, contains: "a scenario file holds one YAML document")
    }

    @Test func aBundledScenarioIsNamedLikeItsFile() throws {
        let directory = try ScenarioFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("other-name.yaml")
        try ScenarioFixtures.designExample.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: Never.self) { try ScenarioLoader.load(contentsOf: url) }
        do {
            _ = try ScenarioLoader.load(contentsOf: url, fixturesDirectory: nil, requireNameMatchesFile: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == 7)
            #expect(error.message.contains("must be its file's base name 'other-name', found 'corrupted-db'"))
        }
    }

    @Test func notARegularFile() {
        do {
            _ = try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: "/dev/zero"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/dev/zero: error: is not a regular file")
        }
    }

    @Test func aliasBombsAreRefused() {
        var yaml = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h"] {
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
            previous = name
        }
        yaml += "name: t\nsummary: s\nsystem: favorites\nsteps: [launch]\n"
        let error = ScenarioFixtures.error(yaml)
        #expect(error?.message.contains("too large") == true)
    }
}
