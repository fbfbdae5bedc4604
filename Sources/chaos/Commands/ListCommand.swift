import ArgumentParser
import Chaos

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List scenarios: name, system, summary.",
        discussion: """
        Without an argument, the scenarios the target ships (the built-in app's, or
        those a --target-exec declares); with folders or files, those scenarios.

        Examples:
          chaos list
          chaos list Examples/Notes/scenarios
        """)

    @Argument(help: "Scenario folders or files (default: the target's own scenarios).")
    var scenarios: [String] = []

    @OptionGroup var target: TargetOptions

    func run() throws {
        let choice = try target.resolve()
        let listed = try CommandFailure.usage {
            scenarios.isEmpty ? try choice.ownScenarios() : try ScenarioLoader.resolve(all: scenarios, in: choice.catalog)
        }
        let nameWidth = listed.map(\.name.count).max() ?? 4
        let systemWidth = max(6, listed.map(\.system.count).max() ?? 6)
        print("NAME".padding(nameWidth) + "  " + "SYSTEM".padding(systemWidth) + "  SUMMARY")
        for scenario in listed {
            print(scenario.name.padding(nameWidth) + "  " + scenario.system.padding(systemWidth) + "  " + TerminalText.clean(scenario.summary))
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
