import GRDB

/// Copies the readable rows of a damaged store into a healthy one.
///
/// Rows the healthy store already has are left alone (`INSERT OR IGNORE`), so on top
/// of a restored backup this adds exactly what was written after the backup and can
/// still be read. A damaged b-tree often breaks a scan in one place: reading forward
/// and then backward by primary key recovers the rows on both sides of the damage.
enum Salvage {
    /// Returns how many rows were added to `target`.
    static func copyReadableRows(from damagedPath: String, into target: any DatabaseWriter) -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        guard let damaged = try? DatabaseQueue(path: damagedPath, configuration: configuration) else { return 0 }
        defer { try? damaged.close() }
        var added = 0
        for table in AppSchema.userTables {
            let rows = readableRows(of: table, in: damaged)
            guard !rows.isEmpty else { continue }
            added += (try? target.write { db -> Int in
                var count = 0
                for row in rows {
                    let columns = Array(row.columnNames)
                    let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ",")
                    let sql = "INSERT OR IGNORE INTO \(table) (\(columns.map { "\"\($0)\"" }.joined(separator: ","))) VALUES (\(placeholders))"
                    try db.execute(sql: sql, arguments: StatementArguments(row.databaseValues))
                    count += db.changesCount
                }
                return count
            }) ?? 0
        }
        return added
    }

    private static func readableRows(of table: String, in queue: DatabaseQueue) -> [Row] {
        var rows: [Int64: Row] = [:]
        for order in ["ASC", "DESC"] {
            _ = try? queue.read { db in
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY id \(order)")
                while let row = try? cursor.next() {
                    if let id = row["id"] as Int64? { rows[id] = row.copy() }
                }
            }
        }
        return rows.keys.sorted().compactMap { rows[$0] }
    }
}
