/// Every fault kind Chaos knows, in one explicit list: what the loader accepts after
/// `fault:` and `clear:`, what `chaos list` shows, what a worker decodes when it is
/// armed, and what `chaos hunt` draws (the kinds of a group in this order: moving one
/// changes the schedules a seed gives). Adding a kind is its file in
/// `Faults/<Family>/`, its line here and its test file
/// (`Tests/ChaosTests/Faults/<Kind>Tests.swift`, which a test holds to).
package enum FaultCatalog {
    package static let all: [any Fault.Type] = [
        // Files, damaged by the controller while the app is down (Seams/Files).
        CorruptFileFault.self,
        DeleteFileFault.self,
        ReadOnlyFault.self,
        ReplaceFileFault.self,
        FileUnavailableFault.self,
        // Fault points in app code, carried out by the FaultRegistry in the app's process.
        ThrowFault.self,
        DelayFault.self,
        ResetContextFault.self,
        // Storage, carried out by the fault VFS or the libc seam in the app's process (or a
        // real full disk).
        DiskFullFault.self,
        IOErrorFault.self,
        SlowIOFault.self,
        BusyFault.self,
        ShortReadFault.self,
        DeviceLockedFault.self,
        MemoryPressureFault.self,
        // Network, carried out by the fault proxy (toxiproxy's vocabulary).
        NetworkDownFault.self,
        BlackholeFault.self,
        ResetPeerFault.self,
        LimitDataFault.self,
        LatencyFault.self,
        BandwidthFault.self,
        SlicerFault.self,
        SlowCloseFault.self,
        // Clock, carried out by libfaketime in the worker (Seams/Clock).
        ClockJumpFault.self,
        ClockSkewFault.self,
        ClockFreezeFault.self,
        // The app's process ended on the spot: the power cut below its files, or the system
        // killing it for its memory (Seams/Power).
        PowerLossFault.self,
        MemoryKillFault.self,
        // Another process of the app on its shared store: a second worker (Seams/Peer).
        PeerHoldsWriteFault.self,
        PeerKilledMidWriteFault.self,
        PeerMigratesFault.self,
    ]

    /// The kinds carried out in the app's process: what a worker can be armed with.
    package static let inProcess: [any InProcessFault.Type] = all.compactMap { $0 as? any InProcessFault.Type }

    /// The wire names, in catalog order.
    package static var kinds: [String] { all.map { $0.kind } }

    /// The kind with wire name `name`, or nil.
    package static func kind(named name: String) -> (any Fault.Type)? {
        all.first { $0.kind == name }
    }
}
