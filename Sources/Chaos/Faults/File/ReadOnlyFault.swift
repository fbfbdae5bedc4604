/// Makes a file read-only while the app is down: a volume mounted read-only, a
/// sandbox that lost its write permission.
///
/// ```yaml
/// - fault: read-only
///   file: store            # logical file name; default store
/// ```
///
/// Clears every write permission bit (`chmod a-w`). Tests and workers may run as
/// root, whom the kernel lets write anyway, so the permission bits are the signal:
/// the target checks them at launch.
public struct ReadOnlyFault: FileFault {
    public static let kind = "read-only"
    public static let summary = "Clear a file's write permission bits while the app is down."
    public static let example = """
        - fault: read-only
          file: store
        """
    public static let parameterKeys = ["file"]

    public var file: String

    public init(file: String = "store") {
        self.file = file
    }

    public init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
    }

    public var label: String { "\(Self.kind) \(file)" }

    public func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .makeReadOnly }
}
