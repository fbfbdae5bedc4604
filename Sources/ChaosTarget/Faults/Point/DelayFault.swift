import FaultPoints

/// Makes a fault point in app code wait before it goes on: a slow fetch, a save stuck
/// behind another writer, a service that answers late.
///
/// ```yaml
/// - fault: delay
///   point: store/favorites/fetch   # a point path; a trailing * matches a subtree
///   for: 2s                        # how long each firing waits (at most 60s)
///   times: 1                       # optional trigger: after, times, probability
/// ```
///
/// A hit in synchronous code blocks its thread; in asynchronous code it suspends.
package struct DelayFault: PointFault {
    package static let kind = "delay"
    package static let summary = "Make a fault point in app code wait before it goes on."
    package static let example = """
        - fault: delay
          point: store/favorites/fetch
          for: 500ms
        """
    package static let parameterKeys = ["point", "for"]

    package static let maximum: Duration = .seconds(60)

    package var point: String
    package var duration: Duration

    package init(point: String, duration: Duration) {
        self.point = point
        self.duration = duration
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        point = try PointPath.read(parameters, example: "store/favorites/fetch")
        guard let duration = try parameters.duration("for") else {
            throw parameters.error("\(parameters.context) needs 'for': how long each hit waits, e.g. for: 500ms", at: "for")
        }
        guard duration > .zero, duration <= Self.maximum else {
            throw parameters.error("'for' of \(parameters.context) must be above 0 and at most 60s, found \(ScenarioDuration.format(duration))", at: "for")
        }
        self.duration = duration
    }

    package var label: String { "\(Self.kind) \(point) \(ScenarioDuration.format(duration))" }

    package func action(_ context: PointFaultContext) -> FaultAction { .delay(duration) }
}
