import Foundation
import Testing

/// `chaos validate` and bad usage: exit 64, a message with file, line and column, no trap.
@Suite struct CLIValidateTests {
    static let valid = """
    name: ok
    summary: fine
    system: favorites
    steps:
      - launch
    """

    @Test(arguments: [
        ("unknown-key.yaml", "name: a\nsummary: b\nsystem: favorites\nsteos:\n  - launch\n", ":4:1:", "steps"),
        ("unknown-fault.yaml", "name: a\nsummary: b\nsystem: favorites\nsteps:\n  - launch\n  - stop\n  - fault: corupt-file\n    how: truncate\n", ":7:", "corrupt-file"),
        ("syntax.yaml", "name: a\nsummary: [b\nsystem: favorites\n", ":", "^"),
    ])
    func invalidScenariosExit64WithALocatedMessage(file: String, text: String, location: String, hint: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(file, text)
        let result = try ChaosExecutable.run(["validate", path.path])
        #expect(result.exitCode == 64, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains(file + location), "\(result.stderr)")
        #expect(result.stderr.contains(hint), "\(result.stderr)")
    }

    @Test func aValidScenarioValidates() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("ok.yaml", Self.valid)
        let result = try ChaosExecutable.run(["validate", path.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
    }

    @Test func everyBundledScenarioValidates() throws {
        let list = try ChaosExecutable.run(["list"])
        #expect(list.exitCode == 0)
        let names = list.stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.contains("corrupted-db"))
        let result = try ChaosExecutable.run(["validate"] + names)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
    }

    @Test func runningAnUnknownScenarioIsBadUsage() throws {
        let result = try ChaosExecutable.run(["run", "corupted-db"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("corrupted-db"), "suggests the closest name: \(result.stderr)")
    }

    @Test func badFlagsAreBadUsage() throws {
        #expect(try ChaosExecutable.run(["run"]).exitCode == 64)
        #expect(try ChaosExecutable.run(["run", "--all", "corrupted-db"]).exitCode == 64)
        #expect(try ChaosExecutable.run(["run", "corrupted-db", "--variant", "shiny"]).exitCode == 64)
        #expect(try ChaosExecutable.run(["run", "corrupted-db", "--seed", "minus-one"]).exitCode == 64)
    }
}
