import FaultPoints

/// Resets the app's persistence context when a fault point is hit, as SwiftData's
/// `ModelContext.reset()` does: every object the context handed out is destroyed.
///
/// ```yaml
/// - fault: reset-context
///   point: store/settings/context   # a point path; a trailing * matches a subtree
///   after: 1                        # optional trigger: after, times, probability
///   times: 1
/// ```
///
/// The fault decides nothing about the context itself: the hit runs the target's own
/// effect `reset-context` (`ChaosTarget.applyEffect`), which resets whatever context is
/// in use at that moment. The hit then goes on, so the app meets the reset in the
/// middle of its work, as it would in production.
public struct ResetContextFault: PointFault {
    public static let kind = "reset-context"
    public static let summary = "Reset the app's persistence context at a fault point, invalidating the objects it handed out."
    public static let example = """
        - fault: reset-context
          point: store/settings/context
          times: 1
        """
    public static let parameterKeys = ["point"]

    /// The target effect's name, as the worker passes it to `ChaosTarget.applyEffect`.
    public static let effect = "reset-context"

    public var point: String

    public init(point: String) {
        self.point = point
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try PointPath.read(parameters, example: "store/settings/context")
    }

    public var label: String { "\(Self.kind) \(point)" }

    public func action(_ context: PointFaultContext) -> FaultAction {
        .call { hit in context.targetEffect(Self.effect, hit.name) }
    }
}
