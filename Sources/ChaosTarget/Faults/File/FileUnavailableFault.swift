/// A file is temporarily unavailable: evicted to the cloud, on a volume not mounted yet,
/// still downloading. It is set aside (out of the app's data folder: an open finds
/// nothing, `ENOENT`) until the step's fault is cleared, and then it is back as it was —
/// in place of whatever the app made under its name meanwhile.
///
/// ```yaml
/// - fault: file-unavailable
///   file: store            # logical file name; default store
/// - launch                 # the store is not there...
/// - do: workload.read
/// - clear: file-unavailable # ...and now it is, as it was
/// ```
///
/// An app that takes "not there right now" for "never was" starts a fresh store over
/// it, and what it saves there is gone once the file comes back (inseven/opolua#123,
/// cryptomator/cryptomator#1309). It acts while the app runs or is closed; unlike
/// damage, it stands until cleared.
package struct FileUnavailableFault: FileFault {
    package static let kind = "file-unavailable"
    package static let summary = "Take a file away for a while (evicted, a volume not there yet), back as it was once cleared."
    package static let example = """
        - fault: file-unavailable
          file: store
        """
    package static let parameterKeys = ["file"]
    package static let actsWhileRunning = true
    package static let stands = true
    /// Nothing of what the file held is lost: it comes back.
    package static let losesWhatTheFileHeld = false

    package var file: String

    package init(file: String = "store") {
        self.file = file
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        file = try LogicalFileName.read(parameters)
    }

    package var label: String { "\(Self.kind) \(file)" }

    package func plan(fileSize: Int, rng: inout SplitMix64) -> FileDamagePlan { .setAside }
}

extension FileUnavailableFault: HuntedFault {
    package static let huntGroup = HuntGroup.fileDamage
    package static let huntWeight = 2

    /// Set aside until the schedule's clear, then back as it was.
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] { [] }
}
