import ChaosTarget

/// A failure of the framework itself (exit code 2), as opposed to a scenario error
/// (the user's input, exit 64) or a verdict (an outcome, not an error).
package enum ChaosError: Error, Sendable, CustomStringConvertible {
    /// A child process could not be started.
    case spawnFailed(String)
    /// A seam could not do its work with the file system or the network.
    case io(String)

    package var description: String {
        switch self {
        case let .spawnFailed(detail): "could not start the worker: \(detail)"
        case let .io(detail): detail
        }
    }
}
