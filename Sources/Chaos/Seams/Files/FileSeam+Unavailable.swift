import ChaosTarget
import Foundation

/// A file taken away for a while (`file-unavailable`): it and its SQLite companions
/// (`-wal`, `-shm`, `-journal`: a database evicted leaves none behind) are kept in the
/// case's scratch folder, out of the app's reach, and put back when the fault is cleared
/// — in place of whatever the app made under their names meanwhile, which is kept aside
/// in the scratch folder too, never in the data folder.
struct TakenAway {
    /// The file's place in the data folder; its companions are beside it.
    var place: URL
    /// Each file's place in the data folder, and where it is kept meanwhile.
    var files: [(place: URL, kept: URL)]
    /// The fault's label, for the clear's report.
    var label: String

    static let companions = ["", "-wal", "-shm", "-journal"]
}

extension FileSeam {
    func takeAway(_ url: URL, fault: any FileFault, id: String, in context: SeamContext) throws(CaseEnd) -> StepResult {
        let keep = context.files.scratch.appendingPathComponent("unavailable-\(id)")
        var files: [(place: URL, kept: URL)] = []
        do {
            try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
            for suffix in TakenAway.companions {
                let place = URL(fileURLWithPath: url.path + suffix)
                guard FileManager.default.fileExists(atPath: place.path) else { continue }
                let kept = keep.appendingPathComponent(place.lastPathComponent)
                try FileManager.default.moveItem(at: place, to: kept)
                files.append((place, kept))
            }
        } catch {
            throw .harness("\(id) '\(fault.label)': cannot take \(url.lastPathComponent) away: \(error.localizedDescription)")
        }
        takenAway[id] = TakenAway(place: url, files: files, label: fault.file)
        context.log.filesAway += 1
        let names = files.map(\.place.lastPathComponent).joined(separator: ", ")
        return note(fault, id: id, done: "took \(names) away until cleared",
                    effect: FaultEffect(hadEffect: true, summary: "\(names) not there until cleared"), in: context)
    }

    func bringBack(_ away: TakenAway, id: String, in context: SeamContext) throws(CaseEnd) {
        let made = context.files.scratch.appendingPathComponent("made-while-unavailable-\(id)")
        do {
            // What the app made under the names meanwhile (a fresh store, its -wal) goes first.
            for suffix in TakenAway.companions {
                let place = URL(fileURLWithPath: away.place.path + suffix)
                guard FileManager.default.fileExists(atPath: place.path) else { continue }
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: place, to: made.appendingPathComponent(place.lastPathComponent))
            }
            for file in away.files { try FileManager.default.moveItem(at: file.kept, to: file.place) }
            context.log.filesAway -= 1
        } catch {
            throw .harness("\(id) '\(FileUnavailableFault.kind) \(away.label)': cannot bring it back: \(error.localizedDescription)")
        }
    }
}
