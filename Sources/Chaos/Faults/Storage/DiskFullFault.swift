/// The disk is full: writes fail with `SQLITE_FULL` until the fault is cleared.
///
/// ```yaml
/// - fault: disk-full
///   on: wal                # store | journal | wal | any (default any)
///   after-bytes: 65536     # optional: let this many bytes through first
/// ```
///
/// Injected in the fault VFS (`mechanism: vfs`, the default), or for real:
/// `mechanism: tmpfs` fills the case's small tmpfs (see the scenario's `disk:` key)
/// so the kernel itself answers ENOSPC.
public struct DiskFullFault: Fault {
    public static let kind = "disk-full"
    public static let family = FaultFamily.storage
    public static let summary = "Fail writes as a full disk does (SQLITE_FULL), in the VFS or on a real full tmpfs."
    public static let example = """
        - fault: disk-full
          on: wal
        """
    public static let parameterKeys = ["after-bytes", "mechanism"]
    public static let acceptsTrigger = true
    public static let acceptsStorageFile = true

    public enum Mechanism: String, Sendable, CaseIterable { case vfs, tmpfs }

    public var afterBytes: Int?
    public var mechanism: Mechanism

    public init(afterBytes: Int? = nil, mechanism: Mechanism = .vfs) {
        self.afterBytes = afterBytes
        self.mechanism = mechanism
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        afterBytes = try parameters.int("after-bytes", in: 0...1_000_000_000_000)
        let name = try parameters.oneOf("mechanism", Mechanism.allCases.map(\.rawValue)) ?? Mechanism.vfs.rawValue
        mechanism = Mechanism(rawValue: name) ?? .vfs
        if mechanism == .tmpfs, afterBytes != nil {
            throw parameters.error("'after-bytes' is for the VFS mechanism; a tmpfs is full when it is full", at: "after-bytes")
        }
    }

    public var label: String {
        var text = Self.kind
        if let afterBytes { text += " after \(afterBytes) bytes" }
        if mechanism == .tmpfs { text += " (real, tmpfs)" }
        return text
    }
}
