import FaultPoints

/// A fault at a fault point in app code (`FaultPoint.hit()`), carried out by the
/// worker's process-global ``FaultRegistry``: every hit of a point the fault's path
/// matches is one of its operations, counted by the step's ``Trigger``; when the
/// trigger fires, the hit does what ``action(_:)`` says.
///
/// Adding a point fault kind is one file: a struct conforming to this protocol, and
/// its line in ``FaultCatalog/all``.
package protocol PointFault: InProcessFault {
    /// The point path, `layer/component/operation[/moment]`, maybe ending in `*`.
    var point: String { get }
    /// What a hit the trigger fired on does.
    func action(_ context: PointFaultContext) -> FaultAction
}

extension PointFault {
    package static var family: FaultFamily { .point }
    package static var acceptsTrigger: Bool { true }
}

/// What a point fault may ask of the app's process when it decides.
package struct PointFaultContext: Sendable {
    /// Runs one of the target's own effects (`reset-context`) at the point, on the
    /// thread that hit it.
    package let targetEffect: @Sendable (_ effect: String, _ point: String) -> Void

    package init(targetEffect: @escaping @Sendable (String, String) -> Void) {
        self.targetEffect = targetEffect
    }
}

/// Point paths: `a/b[/c...]`, segments of `[A-Za-z0-9._-]`, the last one may end in
/// `*` (`store/*`, `store/fav*`), at most 200 characters.
package enum PointPath {
    package static func isValid(_ text: String) -> Bool {
        guard text.count <= 200 else { return false }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        for (index, segment) in segments.enumerated() {
            let isLastWildcard = index == segments.count - 1 && segment.hasSuffix("*")
            let body = isLastWildcard ? segment.dropLast() : Substring(segment)
            guard !body.isEmpty || isLastWildcard else { return false }
            guard body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return false }
        }
        return true
    }

    /// Reads the `point:` of a point fault step.
    package static func read(_ parameters: ScenarioParameters, example: String) throws(ScenarioError) -> String {
        let point = try parameters.requiredString("point")
        guard isValid(point) else {
            throw parameters.error(
                "'point' of \(parameters.context) must be a point path like \(example) (at least two segments of [A-Za-z0-9._-], a trailing * allowed), found '\(point)'",
                at: "point"
            )
        }
        return point
    }
}
