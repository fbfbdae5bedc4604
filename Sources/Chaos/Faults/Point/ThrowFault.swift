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
public struct ThrowFault: Fault {
    public static let kind = "throw"
    public static let family = FaultFamily.point
    public static let summary = "Make a fault point in app code throw an error."
    public static let example = """
        - fault: throw
          point: store/favorites/fetch
          times: 1
        """
    public static let parameterKeys = ["point", "message"]
    public static let acceptsTrigger = true

    public static let defaultMessage = "injected failure"

    /// The point path, `layer/component/operation[/moment]`, maybe ending in `*`.
    public var point: String
    public var message: String

    public init(point: String, message: String = ThrowFault.defaultMessage) {
        self.point = point
        self.message = message
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try parameters.requiredString("point")
        guard Self.isPointPath(point) else {
            throw parameters.error(
                "'point' of \(parameters.context) must be a point path like store/favorites/fetch (at least two segments of [A-Za-z0-9._-], a trailing * allowed), found '\(point)'",
                at: "point"
            )
        }
        message = try parameters.string("message", default: Self.defaultMessage)
    }

    /// `a/b[/c...]`, segments of `[A-Za-z0-9._-]`, the last one may end in `*`
    /// (`store/*`, `store/fav*`), at most 200 characters.
    public static func isPointPath(_ text: String) -> Bool {
        guard text.count <= 200 else { return false }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        for (index, segment) in segments.enumerated() {
            var body = Substring(segment)
            if index == segments.count - 1, body.hasSuffix("*") { body = body.dropLast() }
            let isLastWildcard = index == segments.count - 1 && segment.hasSuffix("*")
            guard !body.isEmpty || isLastWildcard else { return false }
            guard body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return false }
        }
        return true
    }

    public var label: String {
        message == Self.defaultMessage ? "\(Self.kind) \(point)" : "\(Self.kind) \(point) (\"\(message)\")"
    }
}
