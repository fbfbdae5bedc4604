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
public struct ThrowFault: PointFault {
    public static let kind = "throw"
    public static let summary = "Make a fault point in app code throw an error."
    public static let example = """
        - fault: throw
          point: store/favorites/fetch
          times: 1
        """
    public static let parameterKeys = ["point", "message"]

    public static let defaultMessage = "injected failure"

    public var point: String
    public var message: String

    public init(point: String, message: String = ThrowFault.defaultMessage) {
        self.point = point
        self.message = message
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try PointPath.read(parameters, example: "store/favorites/fetch")
        message = try parameters.string("message", default: Self.defaultMessage)
    }

    public var label: String {
        message == Self.defaultMessage ? "\(Self.kind) \(point)" : "\(Self.kind) \(point) (\"\(message)\")"
    }

    public func action(_ context: PointFaultContext) -> FaultAction { .fail(message: message) }
}
