import ChaosTarget
import Foundation

/// A logical file that is a folder (an upload server's `blobs/`, a folder of notes):
/// damaged file by file. Each regular file inside gets its own plan, from its own size
/// and a seed derived from the step's and the file's path, so a folder of five uploads is
/// damaged as five files would be; a missing or read-only folder is the folder itself
/// (``FileDamage`` already deletes a folder whole). A replacement by one file
/// (`replace-file`, `not-a-database`) is not damage to a folder: not applicable.
enum FolderDamage {
    /// Whether `url` is a folder (not a link to one).
    static func isFolder(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The regular files under `folder`, as paths relative to it, sorted.
    static func files(in folder: URL) -> [String] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var info = stat()
            return lstat(folder.appendingPathComponent(name).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }.sorted()
    }

    /// What damaging a folder came to: what was done, and its effect, measured.
    struct Outcome {
        var done: String
        var effect: FaultEffect
    }

    /// Applies `fault` to every file in `folder`; nil when the fault acts on the folder
    /// itself (delete, read-only) and ``FileDamage`` should carry it out as it is.
    static func apply(_ fault: any FileFault, to folder: URL, seed: UInt64) throws -> Outcome? {
        let files = files(in: folder)
        var probe = SplitMix64(seed: seed)
        switch fault.plan(fileSize: 0, format: .plain, rng: &probe) {
        case .delete, .makeReadOnly, .setAside: return nil
        case .replace:
            throw CaseEnd.notApplicable("\(folder.lastPathComponent) is a folder: '\(type(of: fault).kind)' puts one file in place "
                + "of a store that is one file")
        case .edits, .truncate: break
        }
        guard !files.isEmpty else {
            return Outcome(done: "left \(folder.lastPathComponent) alone: the folder holds no file",
                           effect: FaultEffect(hadEffect: false, summary: "no effect: \(folder.lastPathComponent) holds no file"))
        }
        var done: [String] = []
        var changed: [String] = []
        for name in files {
            let file = folder.appendingPathComponent(name)
            let before = FileDamageEffect.digest(of: file)
            let size = (try? FileDamage.size(of: file)) ?? 0
            var rng = SplitMix64(seed: seed ^ RecordDigest.of(name))
            let plan = fault.plan(fileSize: size, format: .plain, rng: &rng)
            done.append(try FileDamage.apply(plan, to: file))
            if FileDamageEffect.bytes(before: before, url: file).hadEffect { changed.append(name) }
        }
        let where_ = folder.lastPathComponent
        let effect = changed.isEmpty
            ? FaultEffect(hadEffect: false, summary: "no effect: no byte of the \(files.count) files in \(where_) changed")
            : FaultEffect(hadEffect: true, summary: "the bytes of \(changed.count) of the \(files.count) files in \(where_) changed")
        return Outcome(done: "in \(where_), file by file: " + done.joined(separator: "; "), effect: effect)
    }
}
