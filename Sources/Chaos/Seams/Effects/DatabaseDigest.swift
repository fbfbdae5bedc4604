import CSQLite
import ChaosTarget
import Foundation

/// What a database holds, as one hash: its schema and every row of every table, read
/// through SQLite's plain "unix" VFS. Equal digests: the same data, whatever its bytes.
/// Read from a copy only: opening a WAL database may recover and checkpoint it.
enum DatabaseDigest {
    /// The digest of the database at `path`, or why SQLite cannot read it.
    static func of(_ path: String) -> Result<UInt64, Unreadable> {
        var db: OpaquePointer?
        let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, "unix")
        defer { sqlite3_close_v2(db) }
        guard opened == SQLITE_OK, let db else { return .failure(Unreadable(reason: message(db, opened))) }
        var hash = FNV1a.offsetBasis
        do {
            let tables = try rows(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name", into: &hash)
            for table in tables {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                _ = try rows(db, "SELECT * FROM \(quoted)", into: &hash)
            }
        } catch {
            return .failure(error)
        }
        return .success(hash)
    }

    struct Unreadable: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// Runs `sql`, folding every value into `hash`; returns the first column's texts.
    private static func rows(_ db: OpaquePointer, _ sql: String, into hash: inout UInt64) throws(Unreadable) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw Unreadable(reason: message(db, 0)) }
        defer { sqlite3_finalize(statement) }
        var first: [String] = []
        while true {
            let step = sqlite3_step(statement)
            guard step == SQLITE_ROW else {
                if step == SQLITE_DONE { return first }
                throw Unreadable(reason: message(db, step))
            }
            for column in 0..<sqlite3_column_count(statement) {
                let bytes = sqlite3_column_blob(statement, column).map {
                    Array(UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, column))))
                } ?? []
                for byte in bytes + [0xFF] {
                    hash ^= UInt64(byte)
                    hash &*= FNV1a.prime
                }
                if column == 0 { first.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    private static func message(_ db: OpaquePointer?, _ code: Int32) -> String {
        db.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(code)"
    }
}
