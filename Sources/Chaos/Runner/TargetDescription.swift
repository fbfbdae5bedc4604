import ChaosTarget
import Foundation

/// What a target is made of, asked of it (`describe`): its files, actions, probes,
/// modes and workload. One worker is started on an empty data folder of its own and
/// killed once it has said; nothing of the app runs.
package enum TargetDescription {
    /// Why a target could not say.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// True when the executable could not be run at all, or declared what Chaos cannot
        /// use (the user's to fix: a wrong path, a script with no interpreter line, a
        /// ready line that is not UTF-8); false when it ran and did not answer.
        package var cannotRun = false
    }

    package static func read(_ worker: WorkerCommand, named name: String, variant: String, scratchRoot: URL = FileManager.default.temporaryDirectory,
                             timeout: Duration = .seconds(30)) throws(Failure) -> TargetDeclaration {
        guard let folder = try? ScratchFolder.make(in: scratchRoot, for: "describe") else {
            throw Failure(description: "cannot make a scratch folder in \(scratchRoot.path)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let stderrFile = folder.appendingPathComponent("stderr")
        let context = TargetContext(dataDirectory: folder.appendingPathComponent("data"), variant: variant)
        let leftovers = ProcessLeftovers(mark: folder.lastPathComponent)
        defer { leftovers.endAll() }
        let start: WorkerStart
        do {
            try FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
            start = try WorkerSession.start(command: worker, context: context, stderrFile: stderrFile, deadline: .now + timeout,
                                            mark: leftovers.environmentEntry, started: leftovers.workerStarted)
        } catch {
            throw Failure(description: "\(name) cannot be run: \(error)", cannotRun: true)
        }
        switch start {
        case let .ready(link):
            defer { link.kill() }
            guard let session = link as? WorkerSession else { throw Failure(description: "\(name) is not a worker process") }
            switch session.describe(deadline: .now + timeout) {
            case let .declared(declaration): return declaration
            case let .refused(why): throw Failure(description: "\(name) declares what Chaos cannot use: \(why)", cannotRun: true)
            case let .failed(why):
                let stderr = OutputTail.read(stderrFile, bytes: 1_000)
                throw Failure(description: "\(name) did not say what it declares: \(why)" + (stderr.isEmpty ? "" : "\n\(stderr)"))
            }
        case let .failed(_, _, detail):
            let stderr = OutputTail.read(stderrFile, bytes: 1_000)
            throw Failure(description: "\(name) did not start: \(detail)" + (stderr.isEmpty ? "" : "\n\(stderr)"))
        case let .refused(why):
            throw Failure(description: "\(name) cannot be used: \(why)", cannotRun: true)
        case let .hung(seen):
            throw Failure(description: "\(name) did not start: \(seen)")
        case .interrupted:
            throw Failure(description: "interrupted while \(name) was starting")
        }
    }
}
