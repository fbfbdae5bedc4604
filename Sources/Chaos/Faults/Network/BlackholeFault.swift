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
public struct BlackholeFault: NetworkFault {
    public static let kind = "blackhole"
    public static let family = FaultFamily.network
    public static let summary = "Accept connections and never answer: bytes are read and dropped."
    public static let example = """
        - fault: blackhole
        """
    public static let parameterKeys = ["direction"]
    public static let acceptsTrigger = true

    public var direction: NetworkDirection

    public init(direction: NetworkDirection = .both) {
        self.direction = direction
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        direction = try NetworkDirection.read(parameters, default: .both)
    }

    public func toxic(seed: UInt64) -> any NetworkToxic { Silence() }

    public var label: String { Self.kind + direction.suffix(default: .both) }

    struct Silence: NetworkToxic {
        mutating func plan(_ count: Int) -> ChunkPlan { .drop }
        var swallowsClose: Bool { true }
    }
}
