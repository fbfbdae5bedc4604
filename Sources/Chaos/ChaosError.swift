/// A failure of the framework itself (exit code 2), as opposed to a scenario error
/// (the user's input, exit 64) or a verdict (an outcome, not an error).
public enum ChaosError: Error, Sendable, CustomStringConvertible {
    case spawnFailed(String)
    case workerProtocol(String)
    case workerNotFound(String)
    case io(String)

    public var description: String {
        switch self {
        case let .spawnFailed(detail): "could not start the worker: \(detail)"
        case let .workerProtocol(detail): "the worker broke the protocol: \(detail)"
        case let .workerNotFound(detail): "worker executable not found: \(detail)"
        case let .io(detail): detail
        }
    }
}
