import ArgumentParser
import Chaos
import Foundation

/// The built-in worker: hosts the reference app (SystemUnderTest) for the controller.
/// Hidden: `chaos run` starts it; people don't.
struct WorkerSubcommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Host the built-in target for a controller (internal).",
        shouldDisplay: false)

    @Option(help: "The app's data directory.") var data: String
    @Option(help: "hardened or legacy.") var variant: String = "hardened"
    @Option(help: "The case seed.") var seed: UInt64 = 1
    @Option(help: "A target option KEY=VALUE (repeatable).") var option: [String] = []

    @MainActor
    func run() async throws {
        var options: [String: String] = [:]
        for pair in option {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                printError("chaos worker: --option wants KEY=VALUE, got '\(pair)'")
                throw ExitCode(64)
            }
            options[parts[0]] = parts[1]
        }
        let context = TargetContext(dataDirectory: URL(fileURLWithPath: data), variant: variant, options: options, seed: seed)
        let code = await WorkerHost.run(SystemUnderTestTarget.self, context: context)
        if code != 0 { throw ExitCode(code) }
    }
}
