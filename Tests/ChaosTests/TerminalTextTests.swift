import Foundation
import Testing
@testable import Chaos

/// Text from a scenario or a worker never drives the terminal: an ESC, a BEL, a C1
/// control are shown, not obeyed.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownInCaretNotation() {
        #expect(TerminalText.clean("red \u{1B}[31mtext\u{07}") == "red ^[[31mtext^G")
        #expect(TerminalText.clean("tab\tand\nline") == "tab\tand\nline")
        #expect(TerminalText.clean("\u{7F}\u{9B}") == "^?\\u{9b}")
        #expect(TerminalText.clean("plain — ünïcode ✔") == "plain — ünïcode ✔")
    }

    @Test func aScenarioSummaryWithEscapesIsListedSafely() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("t.yaml", "name: t\nsummary: \"bell \\a and \\e[2J clear\"\nsystem: favorites\nsteps:\n  - launch\n")
        let result = try ChaosExecutable.run(["list", file.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"))
        #expect(result.stdout.contains("bell ^G and ^[[2J clear"), "\(result.stdout)")
    }
}
