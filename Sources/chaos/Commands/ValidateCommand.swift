import ArgumentParser
import Chaos
import Foundation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files without running them.",
        discussion: "Prints every error with its file, line and column. Exit 0 when all are valid, 64 otherwise.")

    @Argument(help: "Scenario files (.yaml) or bundled scenario names.")
    var scenarios: [String]

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give at least one scenario file") }
    }

    func run() throws {
        var failed = false
        for subject in scenarios {
            do {
                let scenario = try ScenarioLoader.resolve(subject)
                print("ok  \(subject): \(scenario.name) — \(scenario.steps.count) steps, \(scenario.checkedExpectations.count) expectations")
            } catch {
                printError(String(describing: error))
                failed = true
            }
        }
        if failed { throw ExitCode(64) }
    }
}

/// Writes a line to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
