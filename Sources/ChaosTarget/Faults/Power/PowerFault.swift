/// A fault of the power family: the app's process ends on the spot, now or at a moment
/// of the running app, and the system decides what of its unsynced writes remain. The
/// power seam carries every kind of it out through the order the kind gives; it never
/// asks which kind it is.
package protocol PowerFault: Fault {
    /// Whether the end comes later (at a write, a sync, a point, a memory bound) rather
    /// than when its step runs.
    var isDeferred: Bool { get }
    /// Whether the end tears unsynced writes sector by sector (the workers then track
    /// them so from their first write).
    var tearsWrites: Bool { get }
    /// The order the worker is sent, its choices drawn from the fault's own seed or else
    /// `caseSeed`.
    func order(caseSeed: UInt64) -> PowerLossOrder
}
