/// Another process of the app — its widget, its extension, a background task — holds
/// the store's write lock for a while: it writes. Chaos starts a second worker of the
/// target on the same data folder (the peer) and has it take the write lock of the
/// shared store (`BEGIN IMMEDIATE` on its own connection), then let go after `for:`.
///
/// ```yaml
/// - fault: peer-holds-write
///   for: 300ms             # how long the peer holds it (default 1s)
/// - do: workload.write     # waits its turn, or fails with a message
/// ```
///
/// An app's save meanwhile meets `SQLITE_BUSY`: with a busy timeout it waits its turn
/// and saves; with GRDB's default busy mode (`.immediateError`) it fails at once —
/// "database is locked" for a widget's refresh of a few hundred milliseconds.
package struct PeerHoldsWriteFault: PeerFault {
    package static let kind = "peer-holds-write"
    package static let family = FaultFamily.peer
    package static let summary = "Another process of the app (a second worker: its widget, its extension) holds the shared store's write lock for a while."
    package static let example = """
        - fault: peer-holds-write
          for: 300ms
        """
    package static let parameterKeys = ["for"]
    package static let acceptsTrigger = false
    /// The longest hold: past it a case is about a hang, not a second writer.
    package static let longest: Duration = .seconds(30)

    package var holding: Duration

    package init(holding: Duration = .seconds(1)) {
        self.holding = holding
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        holding = try parameters.duration("for") ?? .seconds(1)
        guard holding > .zero, holding <= Self.longest else {
            throw parameters.error("'for' is how long the peer holds the write lock: more than 0, at most 30s", at: "for")
        }
    }

    package var label: String { "\(Self.kind) for \(ScenarioDuration.format(holding))" }

    package var plan: PeerPlan { PeerPlan(holding: holding) }
}

extension PeerHoldsWriteFault: HuntedFault {
    package static let huntGroup = HuntGroup.peer
    package static let huntWeight = 2

    /// A widget's refresh: a tenth of a second to just under a second.
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        [HuntKey("for", .string("\(100 * (1 + draws.below(8)))ms"))]
    }
}
