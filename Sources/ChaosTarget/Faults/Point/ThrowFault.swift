import FaultPoints

/// Makes a fault point in app code throw, as a failing fetch or save would.
///
/// ```yaml
/// - fault: throw
///   point: store/favorites/fetch   # a point path; a trailing * matches a subtree: store/*
///   message: disk I/O error        # optional; default "injected failure"
///   after: 2                       # optional trigger: after, times, probability
///   times: 1
/// ```
///
/// The point throws an `InjectedFault` carrying the message, so a report can tell an
/// injected failure from an organic one.
package struct ThrowFault: PointFault {
    package static let kind = "throw"
    package static let summary = "Make a fault point in app code throw an error."
    package static let example = """
        - fault: throw
          point: store/favorites/fetch
          times: 1
        """
    package static let parameterKeys = ["point", "message"]

    package static let defaultMessage = "injected failure"

    package var point: String
    package var message: String

    package init(point: String, message: String = ThrowFault.defaultMessage) {
        self.point = point
        self.message = message
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try PointPath.read(parameters, example: "store/favorites/fetch")
        message = try parameters.string("message", default: Self.defaultMessage)
    }

    package var label: String {
        message == Self.defaultMessage ? "\(Self.kind) \(point)" : "\(Self.kind) \(point) (\"\(message)\")"
    }

    package func action(_ context: PointFaultContext) -> FaultAction { .fail(message: message) }
}

extension ThrowFault: HuntedFault {
    package static let huntGroup = HuntGroup.point
    package static let huntWeight = 80

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { draws.trigger() }
}
