/// Deletes a file while the app is down: the store vanished (a cleaner, a user, a
/// failed migration).
///
/// ```yaml
/// - fault: delete-file
///   file: store            # logical file name; default store
/// ```
///
/// Exactly the named file: deleting the store leaves its `-wal` and `-shm`, which
/// are files of their own (`file: wal`) if the target names them.
public struct DeleteFileFault: FileFault {
    public static let kind = "delete-file"
    public static let summary = "Delete a file while the app is down."
    public static let example = """
        - fault: delete-file
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

    public func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .delete }
}
