import Foundation
import Synchronization

/// A read-only fault, carried out by the libc seam: every call that would change the
/// read-only file or folder itself — an open for writing, a write, a truncate, a rename or
/// link onto it (a replacement), a delete of it, anything made, renamed or removed inside
/// a read-only folder — fails with EROFS, for root as for anyone. Permission bits alone do
/// not stop a replacement by rename, nor root. What is refused is that file (its inode),
/// not its name: once the app has moved it aside, a new file by that name is its own.
///
/// The controller writes the paths (relative to the data folder, one a line) into the
/// file ``listVariable`` names when it applies the fault; each worker started after reads
/// it once, before the target is made, and the seam refuses from its first call.
package enum ReadOnlyPaths {
    /// The environment variable naming the list's file.
    package static let listVariable = "CHAOS_READ_ONLY_LIST"

    /// A read-only file or folder: its canonical path and the inode that was made read-only.
    struct Entry: Sendable {
        var path: String
        var inode: UInt64
        var isFolder: Bool
    }

    private static let entries = Mutex<[Entry]>([])
    /// Calls refused so far, by operation: what the fault did, as the app met it.
    private static let refusals = Mutex<[StorageCall.Operation: Int]>([:])

    /// Reads the list, if the controller wrote one, for the data folder `directory`.
    /// Returns whether any path is read-only.
    @discardableResult
    package static func load(environment: [String: String], dataDirectory: URL) -> Bool {
        guard let list = environment[listVariable], let text = try? String(contentsOfFile: list, encoding: .utf8) else { return false }
        let base = dataDirectory.resolvingSymlinksInPath().path
        var found: [Entry] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let path = base + "/" + line
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            found.append(Entry(path: path, inode: UInt64(info.st_ino), isFolder: info.st_mode & S_IFMT == S_IFDIR))
        }
        entries.withLock { $0 = found }
        return !found.isEmpty
    }

    /// Whether any path is read-only.
    static var isEmpty: Bool { entries.withLock { $0.isEmpty } }

    /// EROFS for a call that would change a read-only file or folder; 0 for any other.
    static func answer(_ operation: StorageCall.Operation, path: String, amount: Int64) -> Int32 {
        let changes: Bool
        switch operation {
        case .open: changes = Int32(truncatingIfNeeded: amount) & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0
        case .write, .truncate, .rename, .delete: changes = true
        default: changes = false
        }
        guard changes else { return 0 }
        let hit = entries.withLock { list in
            list.contains { entry in
                let inside = entry.isFolder ? path.hasPrefix(entry.path + "/") || path == entry.path : path == entry.path
                guard inside else { return false }
                // Still the file (or folder) that was made read-only, not a new one by its name.
                var info = stat()
                return lstat(entry.path, &info) == 0 && UInt64(info.st_ino) == entry.inode
            }
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
