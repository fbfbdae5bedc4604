/// A fault of the link between the app and its remote, carried out by the TCP fault
/// proxy (`Seams/Network/NetworkFaultProxy`). Toxiproxy's vocabulary: each kind is one
/// small file here, and decides, per connection and per direction, what happens to
/// the bytes (a ``NetworkToxic``); the proxy only carries the decisions out. So a kind
/// is tested without sockets.
///
/// Every kind but `network-down` takes `direction:` (toxiproxy's "stream"); all take
/// the shared trigger, counted in connections: `after: 1` lets the first connection
/// through, `times: 1` picks one, `probability: 50%` draws once per connection from
/// the case seed. A fault applies to connections already open when it is armed, in
/// the order they were accepted, and to every new one.
package protocol NetworkFault: Fault {
    /// Which bytes it acts on.
    var direction: NetworkDirection { get }
    /// The decider for one direction of one connection the trigger picked. Its own
    /// randomness (jitter, slice sizes) comes from `seed`.
    func toxic(seed: UInt64) -> any NetworkToxic
    /// Whether, armed with `trigger`, it refuses every connection: the proxy then stops
    /// listening (a connect gets ECONNREFUSED) until it is cleared. Default: no.
    func closesTheListener(_ trigger: Trigger) -> Bool
}

extension NetworkFault {
    package func closesTheListener(_ trigger: Trigger) -> Bool { false }
}

/// Which bytes of a connection a network fault acts on.
package enum NetworkDirection: String, Sendable, CaseIterable, Codable {
    /// From the app to the remote (the request).
    case upstream
    /// From the remote to the app (the response): toxiproxy's default.
    case downstream
    case both

    /// The flows it covers.
    package var flows: [NetworkFlow] {
        switch self {
        case .upstream: [.upstream]
        case .downstream: [.downstream]
        case .both: [.upstream, .downstream]
        }
    }

    /// Reads `direction:`, with the kind's default.
    static func read(_ parameters: ScenarioParameters, default value: NetworkDirection) throws(ScenarioError) -> NetworkDirection {
        try parameters.oneOf("direction", allCases.map(\.rawValue)).flatMap(NetworkDirection.init(rawValue:)) ?? value
    }

    /// ` (upstream)` when not the default, for labels.
    func suffix(default value: NetworkDirection) -> String {
        self == value ? "" : " (\(rawValue))"
    }
}

/// One way through a connection.
package enum NetworkFlow: String, Sendable, Codable, CaseIterable {
    case upstream, downstream
}
