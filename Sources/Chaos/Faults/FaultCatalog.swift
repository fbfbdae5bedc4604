import ChaosTarget

/// Every fault kind Chaos knows, in one explicit list: what the loader accepts after
/// `fault:` and `clear:`, and what `chaos list` shows.
package enum FaultCatalog {
    package static let all: [any Fault.Type] = [
        CorruptFileFault.self,
        DeleteFileFault.self,
        ReadOnlyFault.self,
        ReplaceFileFault.self,
    ] + InProcessFaults.kinds.map { $0 as any Fault.Type } + [  // points and storage: the app's process
        // Network, carried out by the fault proxy (toxiproxy's vocabulary).
        NetworkDownFault.self,
        BlackholeFault.self,
        LatencyFault.self,
        ResetPeerFault.self,
        BandwidthFault.self,
        SlicerFault.self,
        LimitDataFault.self,
        SlowCloseFault.self,
        // Clock, carried out by libfaketime in the worker (Seams/Clock).
        ClockJumpFault.self,
        ClockSkewFault.self,
        ClockFreezeFault.self,
    ]

    /// The wire names, in catalog order.
    package static var kinds: [String] { all.map { $0.kind } }

    /// The kind with wire name `name`, or nil.
    package static func kind(named name: String) -> (any Fault.Type)? {
        all.first { $0.kind == name }
    }
}
