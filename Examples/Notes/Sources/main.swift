import Chaos
import Foundation

// The example target's entry point: Chaos starts it with
//   --data DIR --variant fragile|fixed --seed N [--option KEY=VALUE ...]
// and speaks the worker protocol on stdin/stdout (WorkerHost does all of that).
var data = FileManager.default.temporaryDirectory.appendingPathComponent("notes")
var variant = "fixed"
var seed: UInt64 = 1
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--data": if let value = arguments.next() { data = URL(fileURLWithPath: value) }
    case "--variant": if let value = arguments.next() { variant = value }
    case "--seed": if let value = arguments.next() { seed = UInt64(value) ?? 1 }
    case "--option":
        if let pair = arguments.next()?.split(separator: "=", maxSplits: 1), pair.count == 2 {
            options[String(pair[0])] = String(pair[1])
        }
    default: break
    }
}
let context = TargetContext(dataDirectory: data, variant: variant, options: options, seed: seed)
let code = await WorkerHost.run(NotesTarget.self, context: context)
exit(code)
