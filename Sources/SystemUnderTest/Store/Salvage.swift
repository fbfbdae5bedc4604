import GRDB
import Logging

/// Copies the readable rows of a damaged store into a healthy one.
///
/// Rows the healthy store already has are left alone (`INSERT OR IGNORE`), so on top
/// of a restored backup this adds exactly what was written after the backup and can
/// still be read. A damaged b-tree often breaks a scan in one place: reading forward
/// and then backward by primary key recovers the rows on both sides of the damage; the
/// rows on leaf pages below a broken interior page no walk reaches, and a table whose
/// walk stopped is then read page by page as well (``PageScan``).
enum Salvage {
    /// Returns how many rows were added to `target`.
    static func copyReadableRows(from damagedPath: String, into target: any DatabaseWriter) -> Int {
        // A store cut short still says in its header how long it was, and SQLite then
        // refuses all of it ("malformed" before a single row): a copy told its real
        // length gives up every row on the pages that are left.
        if let copy = CutStoreCopy(of: damagedPath) {
            defer { copy.remove() }
            return copyRows(from: copy.path, into: target)
        }
        // A store whose header is garbage is "not a database" to SQLite, its pages intact:
        // a copy with a header rebuilt from those pages gives their rows up.
        if let copy = RebuiltHeaderCopy(of: damagedPath) {
            defer { copy.remove() }
            return copyRows(from: copy.path, into: target)
        }
        return copyRows(from: damagedPath, into: target)
    }

    private static func copyRows(from damagedPath: String, into target: any DatabaseWriter) -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        guard let damaged = try? ReadOnlyStore.open(damagedPath) else { return 0 }
        let attached = AttachedCopy(damagedPath: damagedPath)
        defer { attached?.remove() }
        defer { try? damaged.close() }
        var added = 0
        // Tables whose walk the damage stopped: the rows below a broken page are still
        // on their leaf pages.
        var stopped: [String] = []
        var walked: [String: Set<Int64>] = [:]
        for table in AppSchema.userTables {
            // Inside SQLite where the file can be attached (``AttachedCopy``); else row by row.
            if let copied = attached?.copy(table, into: target) {
                added += copied.added
                if !copied.complete {
                    stopped.append(table)
                    // What the page scan need not decode again: every id the store now has
                    // (read from the damaged one, or restored from the backup before it).
                    walked[table] = (try? target.read { try Set(Int64.fetchAll($0, sql: "SELECT id FROM \(table)")) }) ?? []
                }
                continue
            }
            let (columns, rows, complete) = readableRows(of: table, in: damaged)
            if !complete {
                stopped.append(table)
                if let index = columns?.firstIndex(of: "id") {
                    walked[table] = Set(rows.compactMap { $0.indices.contains(index) ? Int64.fromDatabaseValue($0[index]) : nil })
                }
            }
            if let columns { added += insert(rows, columns: columns, into: table, of: target) }
        }
        var read: Logger.Metadata = ["rows": "\(added)", "ms": "\(Int((clock.now - start) / .milliseconds(1)))"]
        if !stopped.isEmpty { read["stoppedBy"] = "\(stopped.joined(separator: ","))" }
        AppLog.store.notice("Salvage read the damaged store's tables", metadata: read)
        guard !stopped.isEmpty else { return added }
        // Every page a complete walk reached belongs to its table (or the schema, or an
        // index): only the others may hold a stopped table's rows. Without that list
        // (no dbstat), a page could be given to the wrong table of the same shape.
        let complete = ["sqlite_schema", "sqlite_master"] + AppSchema.userTables.filter { !stopped.contains($0) }
        let list = complete.map { "'\($0)'" }.joined(separator: ",")
        guard let owned = try? damaged.read({ try Set(Int.fetchAll($0, sql: "SELECT pageno FROM dbstat WHERE name IN (\(list))")) }),
              let scan = PageScan(path: damagedPath),
              let tables = try? target.read({ try PageScan.tables(stopped, in: $0) }) else { return added }
        var scanned = 0
        for (table, rows) in scan.rows(for: tables, skipping: owned, known: walked) {
            guard let columns = tables.first(where: { $0.name == table })?.columns.map(\.name) else { continue }
            scanned += insert(rows, columns: columns, into: table, of: target)
        }
        AppLog.store.notice("Salvage read the pages no walk reached", metadata: [
            "rows": "\(scanned)", "ms": "\(Int((clock.now - start) / .milliseconds(1)))"])
        return added + scanned
    }

    /// Inserts `rows` the target lacks; returns how many it took.
    private static func insert(_ rows: [[DatabaseValue]], columns: [String], into table: String, of target: any DatabaseWriter) -> Int {
        guard !rows.isEmpty else { return 0 }
        // One statement, prepared once, for every row of the table.
        let names = columns.map { "\"\($0)\"" }.joined(separator: ",")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ",")
        let sql = "INSERT OR IGNORE INTO \(table) (\(names)) VALUES (\(placeholders))"
        return (try? target.write { db -> Int in
            let statement = try db.makeStatement(sql: sql)
            var count = 0
            for values in rows {
                try statement.execute(arguments: StatementArguments(values))
                count += db.changesCount
            }
            return count
        }) ?? 0
    }

    /// Every row a scan by key reaches, in key order: forward until the damage stops
    /// it, then (only if it did) backward from the end down to the last key read.
    /// `complete`: the forward scan reached the end of the table.
    private static func readableRows(of table: String, in queue: DatabaseQueue) -> (columns: [String]?, rows: [[DatabaseValue]], complete: Bool) {
        var columns: [String]?
        var forward: [[DatabaseValue]] = []
        var lastForward = Int64.min
        var backward: [[DatabaseValue]] = []
        var forwardComplete = false
        for order in ["ASC", "DESC"] {
            var complete = false
            _ = try? queue.read { db in
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY id \(order)")
                while true {
                    let next: Row?
                    do { next = try cursor.next() } catch { return }  // the damage: stop here
                    guard let row = next else {
                        complete = true
                        return
                    }
                    guard let id = row["id"] as Int64? else { continue }
                    if columns == nil { columns = Array(row.columnNames) }
                    if order == "ASC" {
                        forward.append(Array(row.databaseValues))
                        lastForward = id
                    } else {
                        if id <= lastForward { return }
                        backward.append(Array(row.databaseValues))
                    }
                }
            }
            if complete && order == "ASC" {
                forwardComplete = true
                break
            }
        }
        return (columns, forward + backward.reversed(), forwardComplete)
    }
}
