/// Every fault kind Chaos knows, in one explicit list: what the loader accepts after
/// `fault:` and `clear:`, and what `chaos list` shows.
public enum FaultCatalog {
    public static let all: [any Fault.Type] = [
        CorruptFileFault.self,
        DeleteFileFault.self,
        ReadOnlyFault.self,
        ReplaceFileFault.self,
        // Fault points in app code, carried out by the worker's FaultRegistry.
        ThrowFault.self,
        DelayFault.self,
        ResetContextFault.self,
        // Storage, carried out by the fault VFS in the worker.
        DiskFullFault.self,
        IOErrorFault.self,
        SlowIOFault.self,
        BusyFault.self,
        ShortReadFault.self,
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
    public static var kinds: [String] { all.map { $0.kind } }

    /// The kind with wire name `name`, or nil.
    public static func kind(named name: String) -> (any Fault.Type)? {
        all.first { $0.kind == name }
    }
}
