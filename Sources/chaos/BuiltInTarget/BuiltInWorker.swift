import Chaos
import Foundation

/// `chaos worker --data DIR ...`: hosts the reference app (SystemUnderTest) for a
/// controller. Internal: `chaos run` starts it; people don't.
///
/// Taken before ArgumentParser sees the command line (``ChaosCommand/main()``): parsing
/// a subcommand tree costs a worker about 2 ms of reflection and protocol lookups at
/// every start, and a sweep starts three workers a trial.
enum BuiltInWorker {
    static let subcommand = WorkerCommand.builtInSubcommand

    static func run(arguments: [String]) async -> Int32 {
        do {
            let context = try TargetContext(workerArguments: arguments)
            return await WorkerHost.run(SystemUnderTestTarget.self, context: context)
        } catch {
            FileHandle.standardError.write(Data("chaos worker: \(error)\n".utf8))
            return 64
        }
    }
}
