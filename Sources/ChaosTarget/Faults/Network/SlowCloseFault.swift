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
package struct SlowCloseFault: NetworkFault {
    package static let kind = "slow-close"
    package static let family = FaultFamily.network
    package static let summary = "Hold back the close of a connection for a while."
    package static let example = """
        - fault: slow-close
          delay: 1s
        """
    package static let parameterKeys = ["delay", "direction"]
    package static let acceptsTrigger = true

    package var delay: Duration
    package var direction: NetworkDirection

    package init(delay: Duration = .seconds(1), direction: NetworkDirection = .downstream) {
        self.delay = delay
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        delay = try parameters.duration("delay") ?? .seconds(1)
        direction = try NetworkDirection.read(parameters, default: .downstream)
        guard delay <= .seconds(60) else { throw parameters.error("'delay' is at most 60s", at: "delay") }
    }

    package func toxic(seed: UInt64) -> any NetworkToxic { Linger(closeDelay: delay) }

    package var label: String { "\(Self.kind) \(ScenarioDuration.format(delay))" + direction.suffix(default: .downstream) }

    struct Linger: NetworkToxic {
        let closeDelay: Duration
        mutating func plan(_ count: Int) -> ChunkPlan { .forward(count) }
    }
}
