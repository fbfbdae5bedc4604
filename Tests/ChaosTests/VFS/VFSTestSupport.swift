import CSQLite
import Foundation

/// An SQLite error from a test connection.
struct VFSTestError: Error, CustomStringConvertible {
    let code: Int32, message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// A temp directory, resolved to its real path (the unix VFS resolves symlinks
/// in the paths it hands the shim), removed at deinit unless `keep` is set.
/// Unchecked Sendable: `path` never changes; `keep` is set by the test that owns it, before
/// any other thread could see it.
final class VFSTempDir: @unchecked Sendable {
    let path: String
    var keep = false
    init(_ label: String = "vfs") throws {
        let raw = FileManager.default.temporaryDirectory
            .appendingPathComponent("chaos-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: raw, withIntermediateDirectories: true)
        guard let resolved = realpath(raw, nil) else { throw VFSTestError(code: -1, message: "realpath \(raw)") }
        defer { free(resolved) }
        path = String(cString: resolved)
    }
    deinit { if !keep { try? FileManager.default.removeItem(atPath: path) } }
}

/// A bare sqlite3 connection with extended result codes on. `vfs` nil opens with
/// the default VFS (the chaos shim once registered), like GRDB does.
final class RawDB {
    let handle: OpaquePointer
    init(path: String, vfs: String? = nil, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws {
        var h: OpaquePointer?
        let rc = sqlite3_open_v2(path, &h, flags, vfs)
        guard rc == SQLITE_OK, let h else {
            let message = h.map { String(cString: sqlite3_errmsg($0)) } ?? "no handle"
            sqlite3_close(h)
            throw VFSTestError(code: rc, message: message)
        }
        sqlite3_extended_result_codes(h, 1)
        handle = h
    }
    deinit { sqlite3_close_v2(handle) }

    /// The result code of running `sql` (extended).
    @discardableResult
    func code(_ sql: String) -> Int32 { sqlite3_exec(handle, sql, nil, nil, nil) }

    func exec(_ sql: String) throws {
        let rc = code(sql)
        guard rc == SQLITE_OK else { throw VFSTestError(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
    }

    /// Rolls back if a failed statement left a transaction open.
    func rollbackIfNeeded() {
        if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    /// All rows, every column as text (NULL as "").
    func rows(_ sql: String) throws -> [[String]] {
        var stmt: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        defer { sqlite3_finalize(stmt) }
        guard prepared == SQLITE_OK else {
            throw VFSTestError(code: prepared, message: String(cString: sqlite3_errmsg(handle)))
        }
        var result: [[String]] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return result }
            guard rc == SQLITE_ROW else { throw VFSTestError(code: rc, message: String(cString: sqlite3_errmsg(handle))) }
            result.append((0..<sqlite3_column_count(stmt)).map { column in
                sqlite3_column_text(stmt, column).map { String(cString: $0) } ?? ""
            })
        }
    }

    func string(_ sql: String) throws -> String? { try rows(sql).first?.first }
    func int(_ sql: String) throws -> Int? { try string(sql).flatMap { Int($0) } }

    /// The real VFS file of the main database (SQLITE_FCNTL_FILE_POINTER).
    func mainFile() -> UnsafeMutablePointer<sqlite3_file>? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK else { return nil }
        return file
    }
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}
