/// The remote is silent: connections are accepted, then nothing comes back.
///
/// ```yaml
/// - fault: blackhole
///   direction: both        # upstream | downstream | both (default both)
/// ```
///
/// The proxy keeps reading and throws the bytes away, so the sender never blocks and
/// never hears an error: only a timeout of its own gets it out. A close is lost too
/// (a FIN is a packet like any other). Toxiproxy's `timeout` toxic with `timeout: 0`.
package struct BlackholeFault: NetworkFault {
    package static let kind = "blackhole"
    package static let family = FaultFamily.network
    package static let summary = "Accept connections and never answer: bytes are read and dropped."
    package static let example = """
        - fault: blackhole
        """
    package static let parameterKeys = ["direction"]
    package static let acceptsTrigger = true

    package var direction: NetworkDirection

    package init(direction: NetworkDirection = .both) {
        self.direction = direction
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        direction = try NetworkDirection.read(parameters, default: .both)
    }

    package func toxic(seed: UInt64) -> any NetworkToxic { Silence() }

    package var label: String { Self.kind + direction.suffix(default: .both) }

    struct Silence: NetworkToxic {
        mutating func plan(_ count: Int) -> ChunkPlan { .drop }
        var swallowsClose: Bool { true }
    }
}

extension BlackholeFault: HuntedFault {
    package static let huntGroup = HuntGroup.network
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { draws.trigger() }
}
