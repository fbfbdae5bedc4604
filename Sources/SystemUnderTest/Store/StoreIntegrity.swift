import GRDB

/// SQLite's quick integrity check, on an open connection or a file.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_quick_check>
enum StoreIntegrity {
    /// True when an error opening the store means the file itself is damaged (so it is
    /// quarantined and replaced); false for a full disk, an I/O error, a busy lock, a
    /// permission problem — the environment, not the file.
    static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? GRDB.DatabaseError else { return true }
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT, .SQLITE_SCHEMA, .SQLITE_MISMATCH, .SQLITE_ERROR:
            return true
        default:
            return false
        }
    }

    /// A lock another process holds (`SQLITE_BUSY`, or `SQLITE_PROTOCOL` when SQLite gave
    /// up retrying a WAL read under it): not damage, and not passing in a moment.
    static func isLockedElsewhere(_ error: any Error) -> Bool {
        let code = (error as? GRDB.DatabaseError)?.resultCode
        return code == .SQLITE_BUSY || code == .SQLITE_PROTOCOL
    }

    static func isStorageFull(_ error: any Error) -> Bool {
        (error as? GRDB.DatabaseError)?.resultCode == .SQLITE_FULL
    }

    /// Nil when the database is sound; otherwise what SQLite reported.
    static func quickCheck(_ db: Database) -> String? {
        do {
            let lines = try String.fetchAll(db, sql: "PRAGMA quick_check")
            return lines == ["ok"] ? nil : lines.prefix(5).joined(separator: "; ")
        } catch {
            return String(describing: error)
        }
    }

    /// Opens `path` read-only on its own and checks it.
    static func quickCheck(path: String) -> String? {
        do {
            let queue = try ReadOnlyStore.open(path)
            defer { try? queue.close() }
            return try queue.read { quickCheck($0) }
        } catch {
            return String(describing: error)
        }
    }

    /// What SQLite finds damaged in the file at `path`; nil when it is sound, or when it
    /// could not be read for a cause that is not damage (an I/O error, a lock, a full
    /// disk): such a store is unavailable for now, not damaged.
    static func damage(path: String) -> String? {
        do {
            let queue = try ReadOnlyStore.open(path)
            defer { try? queue.close() }
            return try queue.read { quickCheck($0) }
        } catch where !isDamage(error) {
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
