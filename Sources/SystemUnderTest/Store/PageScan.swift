import Foundation
import GRDB

/// The rows of a damaged store read straight from its b-tree leaf pages, for salvage
/// when damage stops SQLite's walk of a table (a zeroed interior page, flipped bytes):
/// the rows on every leaf page the walk never reached are still there.
///
/// Why: SQLite reads a table by walking its b-tree from the root, and one broken
/// interior page hides every leaf below it — the app's forward and backward scans got
/// 594,335 of 1,000,000 favourites back from a store with zeroed pages, where `sqlite3
/// .recover` (a page scan) got 999,870. This is that scan, for the app's own tables:
/// each table-leaf page (type 13) that no intact table's walk reached is decoded cell
/// by cell, and given to the one table whose walk stopped and whose columns its records
/// fit (count, and INTEGER or TEXT where the table says NOT NULL); a page that fits
/// none, or more than one, is left alone. A cell whose record
/// spills onto overflow pages is left alone too (the app's rows are small).
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#b_tree_pages>
struct PageScan {
    /// A table as the healthy store has it: its columns in order, and which of them
    /// is the rowid (an INTEGER PRIMARY KEY, stored as NULL in the record).
    struct Table {
        var name: String
        var columns: [Column]
        struct Column {
            var name: String
            var isRowid: Bool
            /// Non-nil when NOT NULL: whether its values are text (else integers).
            var requiredText: Bool?
        }
    }

    let bytes: [UInt8]
    let pageSize: Int
    let usable: Int

    /// Nil when the file cannot be read or its page size cannot be told.
    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 1_024 else { return nil }
        bytes = [UInt8](data)
        if let stated = StoreFileHeader.pageSize(Array(bytes.prefix(100))) {
            pageSize = stated
            usable = stated - Int(bytes[20])
        } else if let inferred = RebuiltHeaderCopy.inferredPageSize(in: bytes) {
            pageSize = inferred
            usable = inferred
        } else {
            return nil
        }
    }

    /// The tables of `db` (a healthy store of the same schema) that hold user data.
    static func tables(_ names: [String], in db: Database) throws -> [Table] {
        try names.map { name in
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))")
            let columns = info.map { row -> Table.Column in
                let type = (row["type"] as String? ?? "").uppercased()
                let primaryKey = (row["pk"] as Int? ?? 0) == 1
                let notNull = (row["notnull"] as Int? ?? 0) == 1
                return Table.Column(name: row["name"] as String? ?? "", isRowid: primaryKey && type == "INTEGER",
                                    requiredText: notNull ? type.contains("TEXT") : nil)
            }
            return Table(name: name, columns: columns)
        }
    }

    /// Every row of a leaf page that fits exactly one of `tables`, by table name; pages
    /// in `skipping` (those another table's walk reached) are not read, nor the rows
    /// whose rowid `known` already has for their table (what a walk got: decoding them
    /// again is most of the time a scan would take).
    func rows(for tables: [Table], skipping: Set<Int> = [], known: [String: Set<Int64>] = [:]) -> [String: [[DatabaseValue]]] {
        var found: [String: [[DatabaseValue]]] = [:]
        let pages = bytes.count / pageSize
        guard pages >= 2 else { return found }
        for page in 2...pages where !skipping.contains(page) {
            let start = (page - 1) * pageSize
            guard bytes[start] == 13, let cells = leafCells(at: start), let first = cells.first,
                  let sample = record(from: first.payload, length: first.length) else { continue }
            // The page's table: the one its first record fits, checked against every record read.
            let fitting = tables.filter { fits(sample, $0) }
            guard fitting.count == 1, let table = fitting.first else { continue }
            let skip = known[table.name] ?? []
            var rows: [[DatabaseValue]] = []
            var whole = true
            for cell in cells where !skip.contains(cell.rowid) {
                guard let values = record(from: cell.payload, length: cell.length), fits(values, table) else {
                    whole = false
                    break
                }
                rows.append(zip(table.columns, values).map { column, value in column.isRowid ? cell.rowid.databaseValue : value })
            }
            if whole { found[table.name, default: []] += rows }
        }
        return found
    }

    private func fits(_ values: [DatabaseValue], _ table: Table) -> Bool {
        guard values.count == table.columns.count else { return false }
        for (column, value) in zip(table.columns, values) {
            if column.isRowid { if !value.isNull { return false } else { continue } }
            switch (column.requiredText, value.storage) {
            case (nil, _): continue
            case (true?, .string): continue
            case (false?, .int64): continue
            default: return false
            }
        }
        return true
    }

    /// The cells of the leaf page at `start` (rowid, where the record starts and its
    /// length), those that spill onto overflow pages left out; nil when the page's
    /// header or a cell does not hold up.
    private func leafCells(at start: Int) -> [(rowid: Int64, payload: Int, length: Int)]? {
        let count = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        guard count > 0, 8 + 2 * count <= usable else { return nil }
        var cells: [(rowid: Int64, payload: Int, length: Int)] = []
        cells.reserveCapacity(count)
        let end = start + usable
        for index in 0..<count {
            let pointerAt = start + 8 + 2 * index
            let pointer = Int(bytes[pointerAt]) << 8 | Int(bytes[pointerAt + 1])
            guard pointer >= 8, pointer < usable else { return nil }
            var cursor = start + pointer
            guard let payload = varint(&cursor, end), let rowid = varint(&cursor, end) else { return nil }
            // Spilled onto overflow pages: not read here.
            guard payload >= 0, payload <= Int64(usable - 35), cursor + Int(payload) <= end else { continue }
            cells.append((rowid, cursor, Int(payload)))
        }
        return cells
    }

    /// The values of the record at `start`, `length` bytes long.
    private func record(from start: Int, length: Int) -> [DatabaseValue]? {
        var cursor = start
        let end = start + length
        guard let headerSize = varint(&cursor, end), headerSize >= 1, Int(headerSize) <= length else { return nil }
        let headerEnd = start + Int(headerSize)
        var types: [Int64] = []
        while cursor < headerEnd {
            guard let type = varint(&cursor, headerEnd) else { return nil }
            types.append(type)
        }
        var body = headerEnd
        var values: [DatabaseValue] = []
        for type in types {
            let size: Int = switch type {
            case 0, 8, 9: 0
            case 1: 1
            case 2: 2
            case 3: 3
            case 4: 4
            case 5: 6
            case 6, 7: 8
            case 10, 11: -1
            default: Int((type - (type % 2 == 0 ? 12 : 13)) / 2)
            }
            guard size >= 0, body + size <= end else { return nil }
            switch type {
            case 0: values.append(.null)
            case 8: values.append(Int64(0).databaseValue)
            case 9: values.append(Int64(1).databaseValue)
            case 1...6:
                var value: Int64 = (bytes[body] & 0x80) != 0 ? -1 : 0
                for offset in 0..<size { value = value << 8 | Int64(bytes[body + offset]) }
                values.append(value.databaseValue)
            case 7:
                var bits: UInt64 = 0
                for offset in 0..<8 { bits = bits << 8 | UInt64(bytes[body + offset]) }
                values.append(Double(bitPattern: bits).databaseValue)
            default:
                let slice = Array(bytes[body..<body + size])
                if type % 2 == 1 {
                    guard let text = String(validating: slice, as: UTF8.self) else { return nil }
                    values.append(text.databaseValue)
                } else {
                    values.append(Data(slice).databaseValue)
                }
            }
            body += size
        }
        return values
    }

    /// SQLite's variable-length integer at `cursor` (at most 9 bytes), nil past `end`.
    private func varint(_ cursor: inout Int, _ end: Int) -> Int64? {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard cursor < end, cursor < bytes.count else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            if index == 8 { return Int64(bitPattern: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return Int64(bitPattern: value) }
        }
        return nil
    }
}
