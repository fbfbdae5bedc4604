import Foundation

/// What the app has said in this worker: what its launch reported and what its last
/// action came to. The worker host writes it down as it serves them; a target's default
/// `health` and `surfaced` are read from it, so a target keeps no `lastError` of its own.
///
/// One worker serves one target instance, one launch: process-wide is per launch.
@MainActor
package enum TargetHistory {
    /// What `launch()` returned; nil before it did.
    package static var launched: Health?
    /// The last action's result (a thrown error made into one); nil before the first.
    package static var lastAction: ActionResult?
}

extension ChaosTarget {
    /// What this launch's `launch()` reported: the mode the app started in, and what it
    /// told the user then. The default ``health``.
    public var launchHealth: Health { TargetHistory.launched ?? Health() }

    /// What the last action of this launch returned (an error it threw, as the failure it
    /// is); nil before the first.
    public var lastAction: ActionResult? { TargetHistory.lastAction }

    /// What the last action told the user when it failed — the message of its
    /// `.failed(...)`, or the description of the `LocalizedError` it threw — and nil when
    /// it succeeded, said nothing, or no action ran yet.
    public var lastFailure: String? {
        guard let last = TargetHistory.lastAction, !last.ok else { return nil }
        return last.userMessage
    }

    /// What the launch made (the app's store, its repository), or, when it could not
    /// (nil), a failure that tells the user what the launch told them: an action does
    /// `try target.launched(target.store).add(...)` and needs no guard of its own.
    public func launched<Value>(_ value: Value?) throws(LaunchFailure) -> Value {
        guard let value else { throw LaunchFailure(message: launchHealth.message) }
        return value
    }

    /// By default, what the launch reported. Override it to show more: a mode the app
    /// enters later (`local-only` while changes wait for a server).
    public var health: Health { launchHealth }

    /// By default, what the user sees after the last action: its failure message as an
    /// error, or else what ``health`` says, as loudly as it says it. Override it only to
    /// show more.
    public var surfaced: Surfaced {
        if let lastFailure { return .error(lastFailure) }
        let health = health
        guard let message = health.message, health.severity != .none else { return .nothing }
        return Surfaced(health.severity, message)
    }
}

/// What ``ChaosTarget/launched(_:)`` throws: the launch could not make what an action
/// needs; the user reads what the launch said (its `errorDescription`).
public struct LaunchFailure: LocalizedError, CustomStringConvertible {
    public let message: String?
    public var errorDescription: String? { message }
    public var description: String { "the launch did not make it" + (message.map { ": \($0)" } ?? "") }
}
