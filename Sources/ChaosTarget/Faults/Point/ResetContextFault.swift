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
package struct ResetContextFault: PointFault {
    package static let kind = "reset-context"
    package static let summary = "Reset the app's persistence context at a fault point, invalidating the objects it handed out."
    package static let example = """
        - fault: reset-context
          point: store/settings/context
          times: 1
        """
    package static let parameterKeys = ["point"]

    /// The target effect's name, as the worker passes it to `ChaosTarget.applyEffect`.
    package static let effect = "reset-context"

    package var point: String

    package init(point: String) {
        self.point = point
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try PointPath.read(parameters, example: "store/settings/context")
    }

    package var label: String { "\(Self.kind) \(point)" }

    package func action(_ context: PointFaultContext) -> FaultAction {
        .call { hit in context.targetEffect(Self.effect, hit.name) }
    }
}

extension ResetContextFault: HuntedFault {
    package static let huntGroup = HuntGroup.point
    package static let huntWeight = 20

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { draws.trigger() }
}
