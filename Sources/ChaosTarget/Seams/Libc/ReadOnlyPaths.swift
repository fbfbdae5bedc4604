import Foundation
import Synchronization

/// A read-only fault, carried out by the libc seam as a read-only file system does: every
/// call that would change a read-only file or folder of the app's — an open for writing,
/// a truncate, a rename or link onto it (a replacement), a delete, anything made inside a
/// read-only folder — fails with EROFS, for root as for anyone. Permission bits alone do
/// not stop a replacement by rename, nor root.
///
/// The controller writes the paths (relative to the data folder, one a line) into the
/// file ``listVariable`` names when it applies the fault; each worker started after reads
/// it once, before the target is made, and the seam refuses from its first call.
package enum ReadOnlyPaths {
    /// The environment variable naming the list's file.
    package static let listVariable = "CHAOS_READ_ONLY_LIST"

    /// Canonical paths: a file's, or a folder's ending in `/`.
    private static let paths = Mutex<[String]>([])
    /// Calls refused so far, by operation: what the fault did, as the app met it.
    private static let refusals = Mutex<[StorageCall.Operation: Int]>([:])

    /// Reads the list, if the controller wrote one, for the data folder `directory`.
    /// Returns whether any path is read-only.
    @discardableResult
    package static func load(environment: [String: String], dataDirectory: URL) -> Bool {
        guard let list = environment[listVariable], let text = try? String(contentsOfFile: list, encoding: .utf8) else { return false }
        let base = dataDirectory.resolvingSymlinksInPath().path
        var found: [String] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let path = base + "/" + line
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            found.append(exists && isFolder.boolValue ? path + "/" : path)
        }
        paths.withLock { $0 = found }
        return !found.isEmpty
    }

    /// Whether `paths` holds any path.
    static var isEmpty: Bool { paths.withLock { $0.isEmpty } }

    /// EROFS for a call that would change a read-only path; 0 for any other.
    static func answer(_ operation: StorageCall.Operation, path: String, amount: Int64) -> Int32 {
        let changes: Bool
        switch operation {
        case .open: changes = Int32(truncatingIfNeeded: amount) & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0
        case .write, .truncate, .rename, .delete: changes = true
        default: changes = false
        }
        guard changes else { return 0 }
        let hit = paths.withLock { list in
            list.contains { $0.hasSuffix("/") ? path.hasPrefix($0) || path + "/" == $0 : path == $0 }
        }
        guard hit else { return 0 }
        refusals.withLock { $0[operation, default: 0] += 1 }
        return EROFS
    }

    /// The calls refused so far, by operation.
    static func refused() -> [StorageCall.Operation: Int] {
        refusals.withLock { $0 }
    }
}
