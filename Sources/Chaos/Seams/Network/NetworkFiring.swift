import Foundation

/// One thing a network fault did, for the report.
package struct NetworkFiring: Sendable, Equatable {
    /// The fault kind, or `connection` for what happened to one connection.
    package var kind: String
    /// The connection it concerns (1-based, in accept order), nil for the listener.
    package var connection: Int?
    /// The armed fault's id in its case (`step-5`), when one fault did it; nil for the
    /// end of a connection, which may be several faults' doing.
    package var faultID: String?
    package var detail: String
    /// When it happened: a connection a fault picks or ends mid-step is placed on the
    /// case's timeline where it happened, not where the step ended.
    package var at: ContinuousClock.Instant = .now

    /// The listener closed by a fault that refuses connections, and what it reset.
    static func refusal(resetting open: Int) -> String {
        let reset = switch open {
        case 0: "no open connection to reset"
        case 1: "1 open connection reset"
        default: "\(open) open connections reset"
        }
        return "stopped listening (connections are refused); " + reset
    }
}
