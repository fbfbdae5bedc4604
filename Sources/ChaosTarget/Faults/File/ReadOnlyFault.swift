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
package struct ReadOnlyFault: FileFault {
    package static let kind = "read-only"
    package static let summary = "Clear a file's write permission bits while the app is down."
    package static let example = """
        - fault: read-only
          file: store
        """
    package static let parameterKeys = ["file"]
    /// Root ignores permission bits: the app's workers run without that override.
    package static let needsPermissionBits = true
    /// The file is all there: only writing it is refused.
    package static let losesWhatTheFileHeld = false

    package var file: String

    package init(file: String = "store") {
        self.file = file
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
    }

    package var label: String { "\(Self.kind) \(file)" }

    package func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .makeReadOnly }
}

extension ReadOnlyFault: HuntedFault {
    package static let huntGroup = HuntGroup.fileDamage
    package static let huntWeight = 2

    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
