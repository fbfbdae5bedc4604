import Foundation

/// What an armed point does when its decision says "fire". A closed set, as in fail-rs.
public enum FaultAction: Sendable {
    /// The hit throws an ``InjectedFault`` carrying this message.
    case fail(message: String)
    /// The hit waits this long before going on: a slow disk, a slow service.
    case delay(Duration)
    /// The hit runs this callback, then goes on. The worker uses it for effects the
    /// app must survive that are not errors: a reset context, a power cut at a point.
    case call(@Sendable (FaultPoint) -> Void)

    /// `fail`, `delay` or `call`, for firing records (``PointFiring/action``).
    package var label: String {
        switch self {
        case .fail: "fail"
        case .delay: "delay"
        case .call: "call"
        }
    }
}

/// The error a point throws when a fault fires there. It carries what injected it,
/// so a report can tell an injected failure from an organic one.
public struct InjectedFault: LocalizedError, Sendable, CustomStringConvertible {
    /// The point that threw.
    public let point: String
    /// The point's hit count when it fired (1 for the first hit).
    public let hit: Int
    public let message: String

    public init(point: String, hit: Int, message: String) {
        self.point = point
        self.hit = hit
        self.message = message
    }

    public var description: String { "injected fault at \(point) (hit \(hit)): \(message)" }
    public var errorDescription: String? { description }
}

/// The outcome of one hit, carried out outside the registry's lock.
///
/// The control side's answer to a hit, not app API: `package`, and usable from the
/// inlined `FaultPoint.hit()` only.
@usableFromInline
package enum FaultOutcome: Sendable {
    case proceed
    /// The actions of every arming that fired, in the order asked; only the last may
    /// be a `fail` (see ``FaultRegistry``). `hit` is the first firing arming's count.
    case fire([FaultAction], point: FaultPoint, hit: Int)

    @inlinable
    package func performSync() throws {
        guard case let .fire(actions, point, hit) = self else { return }
        for action in actions {
            switch action {
            case let .fail(message):
                throw InjectedFault(point: point.name, hit: hit, message: message)
            case let .delay(duration):
                Self.sleep(duration)
            case let .call(callback):
                callback(point)
            }
        }
    }

    @inlinable
    package func performAsync() async throws {
        guard case let .fire(actions, point, hit) = self else { return }
        for action in actions {
            switch action {
            case let .fail(message):
                throw InjectedFault(point: point.name, hit: hit, message: message)
            case let .delay(duration):
                try? await Task.sleep(for: duration)
            case let .call(callback):
                callback(point)
            }
        }
    }

    /// Blocks the thread: a synchronous hit has no task to suspend.
    @usableFromInline
    static func sleep(_ duration: Duration) {
        duration.sleepThread()
    }
}
