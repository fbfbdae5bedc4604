/// One scenario step as it ran.
///
/// ```json
/// { "index" : 5, "label" : "launch", "startMs" : 412, "durationMs" : 96,
///   "outcome" : "trapped", "detail" : null }
/// ```
public struct StepRecord: Codable, Sendable, Equatable {
    /// Position in the scenario's `steps`, from 1.
    public var index: Int
    /// The step as a reader would write it: `launch`, `do: favorites.add`.
    public var label: String
    /// Milliseconds since the case started.
    public var startMs: Int
    public var durationMs: Int
    /// One of the ``Outcome`` wire names.
    public var outcome: String
    public var detail: String?

    /// The wire names of ``outcome``.
    public enum Outcome {
        public static let ok = "ok"
        public static let error = "error"
        /// An error the step declared with `expect-error:`.
        public static let expectedError = "expected-error"
        public static let trapped = "trapped"
        public static let timedOut = "timed-out"
        /// The power went out during the step (a `power-loss` armed earlier fired).
        public static let powerLost = "power-lost"
        /// Not run: the power was out, the app down until the next launch.
        public static let skipped = "skipped"
        /// A step with `expect-error: true` succeeded.
        public static let unexpectedSuccess = "unexpected-success"
    }

    public init(index: Int, label: String, startMs: Int, durationMs: Int, outcome: String, detail: String? = nil) {
        self.index = index
        self.label = label
        self.startMs = startMs
        self.durationMs = durationMs
        self.outcome = outcome
        self.detail = detail
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(label, forKey: .label)
        try container.encode(startMs, forKey: .startMs)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeOrNull(detail, forKey: .detail)
    }
}
