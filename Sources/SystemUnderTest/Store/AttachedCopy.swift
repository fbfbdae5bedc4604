import Foundation
import GRDB

/// Copies the tables of a damaged store into the healthy one inside SQLite: rows go from
/// page to page without becoming Swift values (a million favourites in about a second,
/// where reading each row and binding it again took five).
///
/// The damaged file is attached to a staging store of its own, beside it, where each
/// table is copied in ranges of ids, one statement each. SQLite ends the transaction of a
/// statement that meets damage, so each range commits alone (the staging store is not
/// synced: it is scratch); a range the damage stops is halved, down to a few hundred ids
/// whose rows are read one by one, forward until the damage and backward from the
/// range's end down to it. The staging store then goes into the healthy one in a single
/// transaction: a power cut during the salvage leaves the healthy store as it was. A table
/// whose walk met damage is reported incomplete: its other rows may still be on leaf
/// pages no walk reaches (``PageScan``).
struct AttachedCopy {
    struct Result {
        var added: Int
        /// Every range was read whole.
        var complete: Bool
    }

    /// Ids a range spans at first, and the most ranges a table is cut into.
    static let rangeWidth: UInt64 = 4_096
    static let maximumRanges: UInt64 = 4_096
    /// The narrowest range tried in one statement; narrower, rows are read one by one.
    static let narrowest: UInt64 = 256

    private let staging: DatabaseQueue
    private let stagingPath: String

    /// Nil when the damaged file cannot be attached (the caller reads it the slow way).
    init?(damagedPath: String) {
        stagingPath = damagedPath + ".salvage-staging"
        try? FileManager.default.removeItem(atPath: stagingPath)
        guard let staging = try? DatabaseQueue(path: stagingPath) else { return nil }
        self.staging = staging
        do {
            try staging.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                try db.execute(sql: "ATTACH DATABASE ? AS salvage", arguments: [Self.attachName(damagedPath)])
            }
        } catch {
            remove()
            return nil
        }
    }

    func remove() {
        try? staging.close()
        try? FileManager.default.removeItem(atPath: stagingPath)
    }

    /// Copies `table` into the healthy store; nil when the damaged store has no such table
    /// with an `id`, or the copy could not be written.
    func copy(_ table: String, into target: any DatabaseWriter) -> Result? {
        guard let columns = try? target.read({ db in try db.columns(in: table).map(\.name) }),
              let staged = try? stage(table, columns: columns) else { return nil }
        let list = staged.columns.map { "\"\($0)\"" }.joined(separator: ",")
        let added = try? target.writeWithoutTransaction { db -> Int in
            try db.execute(sql: "ATTACH DATABASE ? AS staged", arguments: [stagingPath])
            defer { try? db.execute(sql: "DETACH DATABASE staged") }
            var added = 0
            try db.inTransaction {
                try db.execute(sql: "INSERT OR IGNORE INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM staged.\"\(table)\"")
                added = db.changesCount
                return .commit
            }
            return added
        }
        return added.map { Result(added: $0, complete: staged.complete) }
    }

    /// The table's readable rows, in a table of the staging store.
    private func stage(_ table: String, columns healthy: [String]) throws -> (columns: [String], complete: Bool)? {
        try staging.writeWithoutTransaction { db -> (columns: [String], complete: Bool)? in
            let damaged = try Row.fetchAll(db, sql: "PRAGMA salvage.table_info(\"\(table)\")").compactMap { $0["name"] as String? }
            let columns = damaged.filter(healthy.contains)
            guard columns.contains("id") else { return nil }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ",")
            try db.execute(sql: "CREATE TABLE main.\"\(table)\" AS SELECT \(list) FROM salvage.\"\(table)\" WHERE 0")
            let copy = "INSERT INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM salvage.\"\(table)\""
            let edge: Int64?
            do {
                edge = try Int64.fetchOne(db, sql: "SELECT id FROM salvage.\"\(table)\" ORDER BY id DESC LIMIT 1")
            } catch {
                // Not even the right edge reads: the rows one by one, as far as they go.
                try rowByRow(table, list: list, columns.count, from: Int64.min, to: Int64.max, db)
                return (columns, false)
            }
            guard let last = edge else { return (columns, true) }  // an empty table
            let low = (try? Int64.fetchOne(db, sql: "SELECT id FROM salvage.\"\(table)\" ORDER BY id LIMIT 1")) ?? Int64.min
            guard low <= last else { return (columns, true) }
            // Unsigned arithmetic, which cannot overflow: a table of random 64-bit ids
            // spans the whole line, and is still cut into at most `maximumRanges`.
            let span = UInt64(bitPattern: last &- low)
            let width = max(Self.rangeWidth, span / Self.maximumRanges + 1)
            var complete = true
            var offset: UInt64 = 0
            while true {
                let rangeLow = Int64(bitPattern: UInt64(bitPattern: low) &+ offset)
                let isLast = span - offset < width
                let rangeHigh = isLast ? last : Int64(bitPattern: UInt64(bitPattern: rangeLow) &+ (width - 1))
                complete = try copyRange(copy, table, list: list, columns.count, rangeLow, rangeHigh, db) && complete
                if isLast { break }
                offset += width
            }
            return (columns, complete)
        }
    }

    /// Ids `low...high` in one statement (its own transaction); a range the damage stops
    /// is halved and each half tried again, down to ``narrowest`` ids, read row by row.
    /// Returns whether the range was read whole.
    private func copyRange(_ copy: String, _ table: String, list: String, _ count: Int, _ low: Int64, _ high: Int64,
                           _ db: Database) throws -> Bool {
        if (try? db.execute(sql: copy + " WHERE id BETWEEN \(low) AND \(high)")) != nil { return true }
        let span = UInt64(bitPattern: high &- low)
        guard span >= Self.narrowest else {
            try rowByRow(table, list: list, count, from: low, to: high, db)
            return false
        }
        let middle = Int64(bitPattern: UInt64(bitPattern: low) &+ span / 2)
        _ = try copyRange(copy, table, list: list, count, low, middle, db)
        _ = try copyRange(copy, table, list: list, count, middle + 1, high, db)
        return false
    }

    /// The rows of ids `low...high` one by one: forward until the damage, then backward
    /// from `high` down to the last id read. Read first, written after: no insert runs
    /// while a cursor on the damaged file is open.
    private func rowByRow(_ table: String, list: String, _ count: Int, from low: Int64, to high: Int64, _ db: Database) throws {
        var lastForward = low - (low == Int64.min ? 0 : 1)
        var rows: [[DatabaseValue]] = []
        for order in ["ASC", "DESC"] {
            let select = "SELECT \(list) FROM salvage.\"\(table)\" WHERE id BETWEEN \(low) AND \(high) ORDER BY id \(order)"
            var reachedEnd = false
            if let cursor = try? Row.fetchCursor(db, sql: select) {
                while true {
                    let next: Row?
                    do { next = try cursor.next() } catch { break }  // the damage: stop here
                    guard let row = next else { reachedEnd = true; break }
                    guard let id = row["id"] as Int64? else { continue }
                    if order == "DESC", id <= lastForward { reachedEnd = true; break }
                    if order == "ASC" { lastForward = id }
                    rows.append(Array(row.databaseValues))
                }
            }
            if reachedEnd, order == "ASC" { break }
        }
        guard !rows.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: count).joined(separator: ",")
        let insert = try db.makeStatement(sql: "INSERT INTO main.\"\(table)\" (\(list)) VALUES (\(placeholders))")
        try db.inTransaction {
            for values in rows { try insert.execute(arguments: StatementArguments(values)) }
            return .commit
        }
    }

    /// How the damaged file is attached: read-only, and immutable when it has no WAL, or
    /// one that holds nothing SQLite would read (``ReadOnlyStore``: no wait on a `-shm` it
    /// may not make, and no WAL index to consult on every page read).
    static func attachName(_ path: String) -> String {
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
        let noWAL = wal == nil || wal?.intValue == 0
        return noWAL || ReadOnlyStore.walHoldsNothing(path + "-wal") ? ReadOnlyStore.immutableURI(path)
            : String(ReadOnlyStore.immutableURI(path).dropLast("immutable=1".count)) + "mode=ro"
    }
}
