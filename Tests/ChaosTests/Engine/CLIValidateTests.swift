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

    /// A `do:` that leaves out an argument its action requires fails `validate` and
    /// `run` at its line (it ran, and ended errored, exit 2).
    @Test func aMissingRequiredArgumentIsRefusedBeforeAnythingRuns() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("no-set.yaml", """
            name: no-set
            summary: words added to no set
            system: vocabulary
            steps:
              - launch
              - do: vocabulary.add-words
                with: { count: 3 }
            """)
        for command in [["validate", path.path], ["run", path.path, "--report-dir", folder.url.appendingPathComponent("reports").path]] {
            let result = try ChaosExecutable.run(command)
            #expect(result.exitCode == 64, "\(command[0]): \(result.stdout)\n\(result.stderr)")
            #expect(result.stderr.contains("no-set.yaml:6:") && result.stderr.contains("needs the argument 'set'"), "\(result.stderr)")
        }
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

/// Validation knows what the run knows: the target's systems, actions and their
/// arguments, files, probes. Every problem exits 64 before any case runs.
@Suite struct TargetValidationTests {
    static func scenario(system: String = "favorites", steps: String, expect: String = "") -> String {
        "name: t\nsummary: t\nsystem: \(system)\nsteps:\n  - launch\n\(steps)" + (expect.isEmpty ? "" : "\nexpect:\n\(expect)")
    }

    @Test(arguments: [
        (scenario(system: "bogus", steps: "  - do: favorites.list"), "t.yaml:3:9: error: unknown system 'bogus'", nil),
        (scenario(steps: "  - do: favorites.lsit"), "t.yaml:6:5: error: unknown action 'favorites.lsit'", "favorites.list"),
        (scenario(steps: "  - do: favorites.add\n    with: { count: -5 }"), "'count' of favorites.add must be a whole number from 1", nil),
        (scenario(steps: "  - do: favorites.add\n    with: { cuont: 5 }"), "'favorites.add' has no argument 'cuont'", "count"),
        (scenario(steps: "  - stop\n  - fault: delete-file\n    file: stor"), "the target has no file named 'stor'", "store"),
        (scenario(steps: "  - do: favorites.list", expect: "  - state: { probe: favorites.cuont, equals: 1 }"), "unknown probe 'favorites.cuont'", "favorites.count"),
    ] as [(String, String, String?)])
    func aScenarioThatDoesNotFitTheBuiltInAppIsRefusedAtItsLine(yaml: String, message: String, suggestion: String?) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("t.yaml", yaml)
        let validated = try ChaosExecutable.run(["validate", file.path])
        #expect(validated.exitCode == 64)
        #expect(validated.stderr.contains(message), "\(validated.stderr)")
        if let suggestion { #expect(validated.stderr.contains("did you mean '\(suggestion)'?"), "\(validated.stderr)") }

        let run = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        #expect(run.exitCode == 64, "refused before any case runs: \(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("chaos-report.json").path))
    }

    @Test func aUsersScenarioIsCheckedAgainstTheirTarget() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("t.yaml", Self.scenario(system: "notes", steps: "  - do: notes.ad\n  - do: favorites.list"))
        let result = try ChaosExecutable.run(["validate", file.path, "--target-exec", UserTargetTests.example])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("unknown action 'notes.ad'") && result.stderr.contains("did you mean 'notes.add'?"), "\(result.stderr)")
        #expect(result.stderr.contains("unknown action 'favorites.list'"), "every problem is reported, not only the first")
        let good = try ChaosExecutable.run(["validate", UserTargetTests.scenarios.path, "--target-exec", UserTargetTests.example])
        #expect(good.exitCode == 0, "\(good.stderr)")
    }
}
