import ChaosTarget
import Foundation

/// A case that starts where a cut left an earlier run (``CrashImages``): the data folder
/// is what `image` held (moved there: an image is used once), and the evidence holds the
/// writes told before the cut (`told`, replayed in order as if heard).
struct CaseStart: Sendable {
    var image: URL
    var told: ArraySlice<WorkerEvent>

    /// Lays the start into a case's data folder (which exists, empty) and log.
    func lay(in dataDirectory: URL, log: CaseLog) throws {
        try CaseFiles.moveContents(of: image, into: dataDirectory)
        for event in told { log.record(event, atMs: 0) }
    }
}
