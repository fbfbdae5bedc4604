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
package struct DeleteFileFault: FileFault {
    package static let kind = "delete-file"
    package static let summary = "Delete a file while the app is down."
    package static let example = """
        - fault: delete-file
          file: store
        """
    package static let parameterKeys = ["file"]

    package var file: String

    package init(file: String = "store") {
        self.file = file
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
    }

    package var label: String { "\(Self.kind) \(file)" }

    package func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .delete }
}

extension DeleteFileFault: HuntedFault {
    package static let huntGroup = HuntGroup.fileDamage
    package static let huntWeight = 2
    /// A folder (`backups`) is deleted, never garbled.
    package static let actsOnFolders = true

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
