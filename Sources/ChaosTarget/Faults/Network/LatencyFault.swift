/// Every chunk of bytes waits before it is passed on: a slow or distant network.
///
/// ```yaml
/// - fault: latency
///   latency: 200ms         # per chunk (default 200ms)
///   jitter: 50ms           # plus or minus up to this much, seeded (default 0)
///   direction: downstream  # upstream | downstream | both (default downstream)
/// ```
///
/// The proxy passes one chunk at a time per direction, so waits add up over a
/// connection the way a congested link's do.
package struct LatencyFault: NetworkFault {
    package static let kind = "latency"
    package static let family = FaultFamily.network
    package static let summary = "Delay every chunk of bytes by a latency, with seeded jitter."
    package static let example = """
        - fault: latency
          latency: 200ms
          jitter: 50ms
        """
    package static let parameterKeys = ["latency", "jitter", "direction"]
    package static let acceptsTrigger = true

    package static let maximum: Duration = .seconds(60)

    package var latency: Duration
    package var jitter: Duration
    package var direction: NetworkDirection

    package init(latency: Duration = .milliseconds(200), jitter: Duration = .zero, direction: NetworkDirection = .downstream) {
        self.latency = latency
        self.jitter = jitter
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        latency = try parameters.duration("latency") ?? .milliseconds(200)
        jitter = try parameters.duration("jitter") ?? .zero
        direction = try NetworkDirection.read(parameters, default: .downstream)
        guard latency <= Self.maximum else { throw parameters.error("'latency' is at most 60s", at: "latency") }
        guard jitter <= latency else {
            throw parameters.error("'jitter' must not exceed 'latency' (a chunk cannot arrive before it was sent)", at: "jitter")
        }
    }

    package func toxic(seed: UInt64) -> any NetworkToxic {
        Delay(latency: latency, jitter: jitter, rng: SplitMix64(seed: seed))
    }

    package var label: String {
        let base = "\(Self.kind) \(ScenarioDuration.format(latency))"
        let spread = jitter == .zero ? "" : " ± \(ScenarioDuration.format(jitter))"
        return base + spread + direction.suffix(default: .downstream)
    }

    struct Delay: NetworkToxic {
        let latency: Duration
        let jitter: Duration
        var rng: SplitMix64

        /// `latency` plus a uniform draw in `-jitter...jitter`.
        mutating func nextDelay() -> Duration {
            let spread = jitter.wholeNanoseconds
            guard spread > 0 else { return latency }
            let offset = Int64(rng.nextInt(in: Int(-spread)...Int(spread)))
            return .nanoseconds(max(0, latency.wholeNanoseconds + offset))
        }

        mutating func plan(_ count: Int) -> ChunkPlan {
            .forward(count, after: nextDelay())
        }
    }
}

extension LatencyFault: HuntedFault {
    package static let huntGroup = HuntGroup.network
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("latency", .string("300ms"))] + draws.trigger()
    }
}
