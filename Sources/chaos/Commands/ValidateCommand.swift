import ArgumentParser
import Chaos
import Foundation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files without running them.",
        discussion: """
        Prints every error with its file, line and column. Exit 0 when all are
        valid, 64 otherwise. Each scenario is checked against its target as a run
        would check it: the system, every action and its arguments, every file a
        fault names, every probe and mode an expectation names.

        Examples:
          chaos validate my-scenario.yaml
          chaos validate Examples/Notes/scenarios \\
              --target-exec .build/debug/chaos-example-notes
        """)

    @Argument(help: "Scenario files (.yaml), folders of them, or the names of the target's own scenarios.")
    var scenarios: [String]

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("give at least one scenario file") }
    }

    func run() throws {
        let choice = try target.resolve()
        var failed = false
        for subject in scenarios {
            let files: [String]
            do { files = try ScenarioLoader.files(of: subject) } catch {
                printError(String(describing: error))
                failed = true
                continue
            }
            for file in files {
                do {
                    let scenario = try ScenarioLoader.resolve(file, in: choice.catalog)
                    let problems = ScenarioTargetCheck.problems(scenario, target: choice.declaration)
                    guard problems.isEmpty else {
                        for problem in problems { printError(String(describing: problem)) }
                        failed = true
                        continue
                    }
                    print("ok  \(file): \(scenario.name) — \(scenario.steps.count) steps, \(scenario.checkedExpectations.count) expectations")
                } catch {
                    printError(String(describing: error))
                    failed = true
                }
            }
        }
        if failed { throw ExitCode(.usage) }
    }
}
