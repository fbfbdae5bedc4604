import ChaosTarget
import SystemUnderTest

/// The reference app, as an executable that hosts it (`chaos`) serves it: its workers,
/// its remote and its declaration (read in the host's own process, where it is compiled
/// in). Everything else of it stays inside this module: the framework reaches it only
/// through ChaosTarget, as any user's target, and knows none of the names below.
package enum ReferenceApp {
    /// The arguments before a worker's own (`--data DIR ...`) that start one of its
    /// workers from the executable that hosts it: `chaos worker`.
    package static let workerArguments = ["worker"]

    /// Serves `arguments` when they are the reference app's own — a worker (`worker
    /// --data DIR ...`), the same public entry as a user's target; or its remote
    /// (`registry --port N`) — and returns the exit code; nil for any other command line.
    /// Taken before the host parses anything: a sweep starts hundreds of workers, and
    /// parsing a subcommand tree costs each about 2 ms. On the main actor, where the
    /// host's `main` runs: a hop to the global executor would start dispatch's threads,
    /// and a fork server with a second thread refuses to fork.
    @MainActor
    package static func serve(commandLine arguments: [String]) async -> Int32? {
        if arguments.starts(with: workerArguments) {
            return await SystemUnderTestTarget.serve(arguments: Array(arguments.dropFirst(workerArguments.count)))
        }
        if arguments.first == RegistryCommand.subcommand {
            return RegistryCommand.run(arguments: Array(arguments.dropFirst()))
        }
        return nil
    }

    /// The variant the reference app's crash reports come from: the code the seeds
    /// describe, with its traps: what `chaos reproduce --from-crash` runs without `--variant`.
    package static let crashingVariant = AppVariant.legacy.rawValue

    /// What the reference app declares.
    @MainActor
    package static var declaration: TargetDeclaration {
        TargetDeclaration(target: SystemUnderTestTarget.self)
    }
}
