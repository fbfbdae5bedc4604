import GRDB

/// SQLite's quick integrity check, on an open connection or a file.
///
/// Related SQLite documentation: <https://www.sqlite.org/pragma.html#pragma_quick_check>
enum StoreIntegrity {
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
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { quickCheck($0) }
        } catch {
            return String(describing: error)
        }
    }
}
