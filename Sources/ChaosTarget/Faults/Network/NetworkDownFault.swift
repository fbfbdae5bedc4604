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
package struct NetworkDownFault: NetworkFault {
    package static let kind = "network-down"
    package static let family = FaultFamily.network
    package static let summary = "Refuse every connection to the remote: the proxy stops listening."
    package static let example = """
        - fault: network-down
        """
    package static let parameterKeys: [String] = []
    package static let acceptsTrigger = true

    package init() {}

    package init(parameters: ScenarioParameters) throws(ScenarioError) {}

    package var direction: NetworkDirection { .both }

    /// The proxy stops listening, rather than resetting picked connections, only when
    /// every connection is to be refused.
    package func closesTheListener(_ trigger: Trigger) -> Bool {
        trigger == Trigger()
    }

    package func toxic(seed: UInt64) -> any NetworkToxic { Refusal() }

    package var label: String { Self.kind }

    /// One picked connection: reset at once, before anything reaches the remote.
    struct Refusal: NetworkToxic {
        mutating func atStart() -> NetworkEnding? { .reset(after: .zero) }
        mutating func plan(_ count: Int) -> ChunkPlan { ChunkPlan(pieces: [], ending: .reset(after: .zero)) }
    }
}

extension NetworkDownFault: HuntedFault {
    package static let huntGroup = HuntGroup.network
    package static let huntWeight = 1

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
