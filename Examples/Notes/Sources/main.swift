import Chaos
import Foundation

// The example target's entry point: Chaos starts it with
//   --data DIR --variant fragile|fixed --seed N [--option KEY=VALUE ...]
// and speaks the worker protocol on stdin/stdout (WorkerHost does all of that).
do {
    let context = try TargetContext(workerArguments: Array(CommandLine.arguments.dropFirst()))
    exit(await WorkerHost.run(NotesTarget.self, context: context))
} catch {
    FileHandle.standardError.write(Data("chaos-example-notes: \(error)\n".utf8))
    exit(64)
}
