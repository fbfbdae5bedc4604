import Foundation
import ChaosTarget

/// Where one case's files are: its scratch folder, the app's data folder (as the app
/// sees it, and as the controller reaches it through the tmpfs namespace, if any), and
/// the target's logical files in it.
struct CaseFiles {
    let scratch: URL
    /// The app's data folder as the controller reaches it.
    let hostDataDirectory: URL
    /// The target's logical files, relative to its data folder (`store` → `app.sqlite`).
    let declared: [String: String]

    /// The app's data folder, as the app sees it.
    var dataDirectory: URL { Self.dataDirectory(in: scratch) }

    static func dataDirectory(in scratch: URL) -> URL { scratch.appendingPathComponent("data") }

    /// The path of one of the target's logical files, as the controller reaches it.
    /// `wal`, `shm` and `journal` are found beside `store` when the target does not
    /// name them. `asTheAppSeesIt`: the path inside the app's namespace, not the controller's view.
    func logicalFile(_ name: String, asTheAppSeesIt: Bool = false) throws(CaseEnd) -> URL {
        let companions = ["wal": "-wal", "shm": "-shm", "journal": "-journal"]
        guard let relative = declared[name] ?? companions[name].flatMap({ suffix in declared["store"].map { $0 + suffix } }) else {
            throw .harness("the target has no file named '\(name)'; it has: \(NameList.text(declared.keys.sorted()))")
        }
        return (asTheAppSeesIt ? dataDirectory : hostDataDirectory).appendingPathComponent(relative)
    }
}

extension CaseFiles {
    /// Moves what `folder` holds into `destination` (which exists), copying what cannot
    /// be moved (another file system): a case that starts from a crash image
    /// (``CaseStart``), which is used once.
    static func moveContents(of folder: URL, into destination: URL) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: folder.path) {
            let (from, to) = (folder.appendingPathComponent(name), destination.appendingPathComponent(name))
            if rename(from.path, to.path) != 0 { try manager.copyItem(at: from, to: to) }
        }
    }
}
