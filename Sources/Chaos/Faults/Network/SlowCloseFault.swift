/// A close takes its time to reach the other side: a peer that lingers before it
/// hangs up, so the reader waits for the end of a stream that is already over.
///
/// ```yaml
/// - fault: slow-close
///   delay: 1s              # how long the close is held back (default 1s)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
///
/// Bytes pass as usual; when the sending side closes, the proxy waits `delay`
/// before closing the other side. Toxiproxy's `slow_close`.
public struct SlowCloseFault: NetworkFault {
    public static let kind = "slow-close"
    public static let family = FaultFamily.network
    public static let summary = "Hold back the close of a connection for a while."
    public static let example = """
        - fault: slow-close
          delay: 1s
        """
    public static let parameterKeys = ["delay", "direction"]
    public static let acceptsTrigger = true

    public var delay: Duration
    public var direction: NetworkDirection

    public init(delay: Duration = .seconds(1), direction: NetworkDirection = .downstream) {
        self.delay = delay
        self.direction = direction
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        delay = try parameters.duration("delay") ?? .seconds(1)
        direction = try NetworkDirection.read(parameters, default: .downstream)
        guard delay <= .seconds(60) else { throw parameters.error("'delay' is at most 60s", at: "delay") }
    }

    public func toxic(seed: UInt64) -> any NetworkToxic { Linger(closeDelay: delay) }

    public var label: String { "\(Self.kind) \(ScenarioDuration.format(delay))" + direction.suffix(default: .downstream) }

    struct Linger: NetworkToxic {
        let closeDelay: Duration
        mutating func plan(_ count: Int) -> ChunkPlan { .forward(count) }
    }
}
