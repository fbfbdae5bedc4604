import ArgumentParser
import Chaos

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bundled scenarios: name, system, summary.")

    func run() throws {
        let scenarios: [Scenario]
        do {
            scenarios = try ScenarioLoader.bundled()
        } catch {
            printError(String(describing: error))
            throw ExitCode(64)
        }
        let nameWidth = scenarios.map(\.name.count).max() ?? 4
        let systemWidth = max(6, scenarios.map(\.system.count).max() ?? 6)
        print("NAME".padding(nameWidth) + "  " + "SYSTEM".padding(systemWidth) + "  SUMMARY")
        for scenario in scenarios {
            print(scenario.name.padding(nameWidth) + "  " + scenario.system.padding(systemWidth) + "  " + scenario.summary)
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
