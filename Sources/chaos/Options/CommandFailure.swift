import ArgumentParser
import Chaos
import Foundation

/// A command that cannot go on: what to tell the user, and how the process ends.
/// ``ChaosCommand`` prints it to stderr and exits with its status.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let status: ExitStatus

    init(_ message: String, _ status: ExitStatus) {
        description = message
        self.status = status
    }
}

extension CommandFailure {
    /// Runs `load` (reading scenarios, a report, a crash log); a scenario error is bad
    /// usage, printed with its file, line and column.
    static func usage<Value>(_ load: () throws -> Value) throws -> Value {
        do {
            return try load()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(String(describing: error), .usage)
        }
    }
}

extension ExitCode {
    init(_ status: ExitStatus) {
        self.init(status.rawValue)
    }
}

/// Writes a line to stderr, its control characters shown, not obeyed (``TerminalText``):
/// an error often quotes a scenario.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalText.clean(text) + "\n").utf8))
}
