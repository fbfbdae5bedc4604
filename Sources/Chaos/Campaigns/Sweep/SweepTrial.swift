import ChaosTarget

/// One trial of `chaos explore`: the scenario's workload with exactly one extra fault,
/// armed in the first launch of the app only (the relaunch that follows is clean, so
/// it shows what the fault left behind).
///
/// Spelled on the command line as `io:17:transient`, `io:17:persistent`,
/// `crash:after-writes:37:torn:2`, `crash:at-sync:5:drop:1`.
package enum SweepTrial: Sendable, Equatable, CustomStringConvertible {
    /// Fail the Nth I/O operation (read, write, sync, truncate) of the first launch:
    /// once (transient) or from then on (persistent).
    case ioError(operation: Int, persistent: Bool)
    /// Lose power at the Nth write or sync of the first launch, in a mode, with a seed.
    case powerLoss(PowerLossFault.Moment, mode: PowerLossFault.Mode, seed: UInt64)

    package var description: String {
        switch self {
        case let .ioError(operation, persistent):
            return "io:\(operation):\(persistent ? "persistent" : "transient")"
        case let .powerLoss(moment, mode, seed):
            switch moment {
            case let .afterWrites(count): return "crash:after-writes:\(count):\(mode.rawValue):\(seed)"
            case let .atSync(count): return "crash:at-sync:\(count):\(mode.rawValue):\(seed)"
            case let .atPoint(point): return "crash:at-point:\(point):\(mode.rawValue):\(seed)"
            case .now: return "crash:now:\(mode.rawValue):\(seed)"
            }
        }
    }

    /// Reads the command-line spelling back; nil when it is not one.
    package init?(_ text: String) {
        let parts = text.split(separator: ":").map(String.init)
        switch parts.first {
        case "io":
            guard parts.count == 3, let count = Int(parts[1]), count > 0,
                  ["transient", "persistent"].contains(parts[2]) else { return nil }
            self = .ioError(operation: count, persistent: parts[2] == "persistent")
        case "crash":
            guard parts.count == 5, let count = Int(parts[2]), count > 0,
                  let mode = PowerLossFault.Mode(rawValue: parts[3]), let seed = UInt64(parts[4]) else { return nil }
            switch parts[1] {
            case "after-writes": self = .powerLoss(.afterWrites(count), mode: mode, seed: seed)
            case "at-sync": self = .powerLoss(.atSync(count), mode: mode, seed: seed)
            default: return nil
            }
        default:
            return nil
        }
    }
}
