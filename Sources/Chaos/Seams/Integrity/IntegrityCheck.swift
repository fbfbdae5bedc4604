import CSQLite
import Foundation
import ChaosTarget

/// `PRAGMA integrity_check` on a store, from the controller, through SQLite's plain
/// "unix" VFS, so nothing of the fault VFS or the app's own code is on the path.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_integrity_check>
package enum IntegrityCheck {
    /// The check on a copy of the store at `url` (and its WAL) made in `folder`, removed
    /// after: opening a WAL database recovers and checkpoints it, and the check must not
    /// change what the app left (nor can SQLite follow /proc/PID/root paths).
    static func problems(ofCopyOf url: URL, in folder: URL) -> String? {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for suffix in ["", "-wal"] {
            let source = URL(fileURLWithPath: url.path + suffix)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            try? FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(url.lastPathComponent + suffix))
        }
        return problems(at: folder.appendingPathComponent(url.lastPathComponent).path)
    }

    /// Nil when the file passes; otherwise what SQLite reported (first lines).
    package static func problems(at path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return "no store file at \(path)" }
        var db: OpaquePointer?
        // Read-write so a WAL left by a killed worker is recovered as the app would.
        let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, "unix")
        defer { sqlite3_close_v2(db) }
        guard opened == SQLITE_OK, let db else {
            return "cannot open: \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(opened)")"
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
            return String(cString: sqlite3_errmsg(db))
        }
        defer { sqlite3_finalize(statement) }
        var lines: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_ROW {
                if let text = sqlite3_column_text(statement, 0) { lines.append(String(cString: text)) }
                if lines.count >= 5 { break }
            } else if step == SQLITE_DONE {
                break
            } else {
                return String(cString: sqlite3_errmsg(db))
            }
        }
        return lines == ["ok"] ? nil : lines.joined(separator: "; ")
    }
}
