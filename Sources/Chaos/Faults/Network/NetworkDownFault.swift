/// The remote cannot be reached at all: connections are refused.
///
/// ```yaml
/// - fault: network-down
/// ```
///
/// With the default trigger the proxy closes its listening socket, so a connect gets
/// ECONNREFUSED, and it resets the connections that were open; clearing it binds the
/// same port again. With a partial trigger (`after`, `times`, `probability`) the
/// listener stays up and each picked connection is reset as soon as it is accepted,
/// which is as close to a refusal as one connection can get. It takes no
/// `direction`: a link that is down is down both ways.
public struct NetworkDownFault: NetworkFault {
    public static let kind = "network-down"
    public static let family = FaultFamily.network
    public static let summary = "Refuse every connection to the remote: the proxy stops listening."
    public static let example = """
        - fault: network-down
        """
    public static let parameterKeys: [String] = []
    public static let acceptsTrigger = true

    public init() {}

    public init(parameters: ScenarioParameters) throws(ScenarioError) {}

    public var direction: NetworkDirection { .both }

    /// Whether the proxy stops listening, rather than resetting picked connections:
    /// only when every connection is to be refused.
    public static func refusesAll(_ trigger: Trigger) -> Bool {
        trigger == Trigger()
    }

    public func toxic(seed: UInt64) -> any NetworkToxic { Refusal() }

    public var label: String { Self.kind }

    /// One picked connection: reset at once, before anything reaches the remote.
    struct Refusal: NetworkToxic {
        mutating func atStart() -> NetworkEnding? { .reset(after: .zero) }
        mutating func plan(_ count: Int) -> ChunkPlan { ChunkPlan(pieces: [], ending: .reset(after: .zero)) }
    }
}
