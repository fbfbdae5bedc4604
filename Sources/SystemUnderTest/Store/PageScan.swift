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
        let header = Array(bytes.prefix(100))
        let stated = Int(header[16]) << 8 | Int(header[17])
        let statedSize = stated == 1 ? 65_536 : stated
        if header.starts(with: RebuiltHeaderCopy.magic), statedSize >= 512, statedSize <= 65_536, statedSize.nonzeroBitCount == 1 {
            pageSize = statedSize
            usable = statedSize - Int(header[20])
        } else if let inferred = RebuiltHeaderCopy.inferredPageSize(of: path) {
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
    /// in `skipping` (those another table's walk reached) are not read.
    func rows(for tables: [Table], skipping: Set<Int> = []) -> [String: [[DatabaseValue]]] {
        var found: [String: [[DatabaseValue]]] = [:]
        let pages = bytes.count / pageSize
        guard pages >= 2 else { return found }
        for page in 2...pages where !skipping.contains(page) {
            let start = (page - 1) * pageSize
            guard bytes[start] == 13, let records = leafRecords(at: start), !records.isEmpty else { continue }
            let fitting = tables.filter { table in records.allSatisfy { fits($0.values, table) } }
            guard fitting.count == 1, let table = fitting.first else { continue }
            for record in records {
                let row = zip(table.columns, record.values).map { column, value in
                    column.isRowid ? record.rowid.databaseValue : value
                }
                found[table.name, default: []].append(row)
            }
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

    /// The records of the leaf page at `start`; nil when its header does not hold up.
    private func leafRecords(at start: Int) -> [(rowid: Int64, values: [DatabaseValue])]? {
        let cells = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        guard cells > 0, 8 + 2 * cells <= usable else { return nil }
        var records: [(rowid: Int64, values: [DatabaseValue])] = []
        for index in 0..<cells {
            let pointerAt = start + 8 + 2 * index
            let pointer = Int(bytes[pointerAt]) << 8 | Int(bytes[pointerAt + 1])
            guard pointer >= 8, pointer < usable else { return nil }
            var cursor = start + pointer
            let end = start + usable
            guard let payload = varint(&cursor, end), let rowid = varint(&cursor, end) else { return nil }
            // Spilled onto overflow pages: not read here.
            guard payload >= 0, payload <= Int64(usable - 35), cursor + Int(payload) <= end else { continue }
            guard let values = record(from: cursor, length: Int(payload)) else { return nil }
            records.append((rowid, values))
        }
        return records
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
