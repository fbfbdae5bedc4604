import Foundation
import Testing

/// The help a user reads is a fixture: every subcommand's `--help` is compared with
/// `Fixtures/help/NAME.txt`, so a change to what users see is a change a reviewer sees.
/// After a deliberate change, regenerate them: `CHAOS_UPDATE_HELP=1 swift test --filter HelpTextTests`.
@Suite struct HelpTextTests {
    static let commands = ["", "run", "check", "explore", "reproduce", "list", "validate", "report", "report merge", "seeds", "hunt"]

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/help")
    }

    static func fixture(_ command: String) -> URL {
        fixtures.appendingPathComponent((command.isEmpty ? "chaos" : command.replacingOccurrences(of: " ", with: "-")) + ".txt")
    }

    @Test(arguments: commands)
    func theHelpIsTheFixture(_ command: String) throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        let result = try ChaosExecutable.run(arguments, environment: ["COLUMNS": "80"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let shown = result.stdout + "\n"
        let file = Self.fixture(command)
        if ProcessInfo.processInfo.environment["CHAOS_UPDATE_HELP"] == "1" {
            try shown.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(shown == expected, "chaos \(command) --help changed; regenerate with CHAOS_UPDATE_HELP=1 if it was meant")
    }

    @Test func everySubcommandHasItsFixture() throws {
        let help = try ChaosExecutable.run(["--help"]).stdout
        let listed = help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n")
            .compactMap { line -> String? in
                let words = line.split(separator: " ")
                return line.hasPrefix("  ") && !line.hasPrefix("   ") ? words.first.map(String.init) : nil
            } ?? []
        #expect(!listed.isEmpty)
        for name in listed where name != "See" {
            #expect(Self.commands.contains(name), "\(name) has no help fixture")
        }
    }
}
