import ChaosTarget
import Foundation

/// A case that starts where a cut left an earlier run (``CrashImages``): the data folder
/// is what `image` held (moved there: an image is used once), and the evidence holds the
/// writes told before the cut (`told`, replayed in order as if heard), the power having
/// gone out, and the action it cut unresolved when it fell inside one.
struct CaseStart: Sendable {
    var image: URL
    var told: ArraySlice<WorkerEvent>
    var duringAction: Bool

    /// Lays the start into a case's data folder (which exists, empty) and log.
    func lay(in dataDirectory: URL, log: CaseLog) throws {
        try CaseFiles.moveContents(of: image, into: dataDirectory)
        for event in told { log.record(event, atMs: 0) }
        log.evidence.powerWentOut = true
        if duringAction { log.evidence.unresolvedActions.append("the action the power cut: cut by the power loss") }
    }
}
