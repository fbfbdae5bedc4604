/// Deletes a file: the store vanished (a cleaner, a user, a failed migration) while the
/// app was down, or while it runs with the file open — on Linux SQLite then writes on
/// into a file no name reaches (WAL mode), gone at the next launch, or answers
/// `SQLITE_READONLY_DBMOVED` (a rollback journal); Apple's systems answer
/// `SQLITE_IOERR_VNODE` (GRDB#1693).
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
    package static let summary = "Delete a file, while the app is down or under it while it runs."
    package static let example = """
        - fault: delete-file
          file: store
        """
    package static let parameterKeys = ["file"]
    /// Also while the app runs: the file goes (or another takes its name) under the
    /// handles the app holds open, as a cleaner, a restore or another process does it.
    package static let actsWhileRunning = true

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
