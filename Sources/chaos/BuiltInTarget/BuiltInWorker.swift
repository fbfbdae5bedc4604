import Chaos
import Foundation
import ReferenceTarget

/// `chaos worker --data DIR ...`: hosts the reference app (SystemUnderTest) for a
/// controller. Internal: `chaos run` starts it; people don't.
///
/// Taken before ArgumentParser sees the command line (``ChaosCommand/main()``): parsing
/// a subcommand tree costs a worker about 2 ms of reflection and protocol lookups at
/// every start, and a sweep starts three workers a trial. It is served through the
/// same public entry as a user's target (``ChaosTarget/serve(arguments:)``).
enum BuiltInWorker {
    static let subcommand = WorkerCommand.builtInSubcommand

    static func run(arguments: [String]) async -> Int32 {
        await ReferenceApp.serveWorker(arguments: arguments)
    }
}
