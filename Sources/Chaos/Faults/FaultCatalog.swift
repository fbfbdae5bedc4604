/// Every fault kind Chaos knows, in one explicit list: what the loader accepts after
/// `fault:` and `clear:`, and what `chaos list` shows.
public enum FaultCatalog {
    public static let all: [any Fault.Type] = [
        CorruptFileFault.self,
        DeleteFileFault.self,
        ReadOnlyFault.self,
        ReplaceFileFault.self,
        ThrowFault.self,
        DiskFullFault.self,
        IOErrorFault.self,
        SlowIOFault.self,
        BusyFault.self,
    ]

    /// The wire names, in catalog order.
    public static var kinds: [String] { all.map { $0.kind } }

    /// The kind with wire name `name`, or nil.
    public static func kind(named name: String) -> (any Fault.Type)? {
        all.first { $0.kind == name }
    }
}
