import ArgumentParser
import Chaos
import Foundation
import ReferenceTarget

/// `chaos`: fault injection and chaos testing for the storage stack of a Swift app.
@main
struct ChaosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos",
        abstract: "Break your app's storage on purpose and check that it survives.",
        discussion: """
        Runs declarative scenarios against the real app stack in a child process: \
        corrupt its database, make a fetch throw, kill it mid-write; then checks that \
        it did not trap, fell back correctly, recovered in time and kept the data.

        Exit codes: 0 all passed, 1 some deviated, 2 harness error, \
        64 bad usage or invalid scenario, 130 interrupted.
        """,
        version: ChaosVersion.current,
        subcommands: [
            RunCommand.self, CheckCommand.self, ReproduceCommand.self, ExploreCommand.self, ListCommand.self, ValidateCommand.self,
            ReportCommand.self, SeedsCommand.self, HuntCommand.self,
        ]
    )

    /// The command lines of the app this executable hosts first (the built-in app's
    /// workers and remote: ``ReferenceApp``), then ArgumentParser for the rest, as its own
    /// `main()` does.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let code = await ReferenceApp.serve(commandLine: arguments) { Glibc.exit(code) }
        // The controller's first instruction: an app that dies mid-request leaves a pipe
        // with no reader, and a write to it must be an error Chaos judges, never SIGPIPE.
        ControllerSignals.ignoreBrokenPipes()
        // What a worker leaves running comes back here to be found and ended
        // (ProcessLeftovers); what a killed controller left is removed first.
        ProcessLeftovers.becomeSubreaper()
        ScratchFolder.removeAbandonedEverywhere()
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            if !failure.description.isEmpty { printError(failure.description) }
            Glibc.exit(failure.status.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
