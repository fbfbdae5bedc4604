import ChaosTarget
import Foundation

/// What a target is made of, read from its ready line: its files, actions, probes,
/// modes and workload. One worker is started on an empty data folder of its own and
/// killed once it has said; nothing of the app runs.
package enum TargetDescription {
    /// Why a target could not say.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func read(_ worker: WorkerCommand, variant: String, scratchRoot: URL = FileManager.default.temporaryDirectory,
                             timeout: Duration = .seconds(30)) throws -> WorkerReady {
        guard let folder = try? ScratchFolder.make(in: scratchRoot, for: "describe") else {
            throw Failure(description: "cannot make a scratch folder in \(scratchRoot.path)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let stderrFile = folder.appendingPathComponent("stderr")
        let context = TargetContext(dataDirectory: folder.appendingPathComponent("data"), variant: variant)
        do {
            try FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
            switch try WorkerSession.start(command: worker, context: context, stderrFile: stderrFile, deadline: .now + timeout) {
            case let .ready(link):
                link.kill()
                return link.ready
            case let .failed(_, _, detail):
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                throw Failure(description: "\(worker.targetName) did not start: \(detail)\n\(stderr.suffix(1_000))")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(worker.targetName) could not be started: \(error)")
        }
    }
}
