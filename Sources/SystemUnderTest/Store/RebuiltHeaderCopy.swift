import Foundation

/// A copy of a store whose 100-byte header is garbage (an overwrite, a torn first
/// write), with a header rebuilt from what its pages still say, so SQLite reads the
/// b-trees again and salvage copies their rows. The damaged file itself is never
/// changed: it is the quarantine's evidence.
///
/// Why: without its header SQLite calls the file "not a database" and reads nothing —
/// `sqlite3 .recover` gives up too, since it needs the header's page size — yet only
/// the header is gone. The page size is what the pages themselves show: the size at
/// which the most page starts are b-tree pages (their first byte 2, 5, 10 or 13, their
/// cell area inside the page) — counted against all the pages at that size, so half
/// the true size (whose odd pages start mid-page) and twice it (which skips every other
/// page) both score lower. Page 1's own b-tree (the schema) starts at byte 100, after the
/// header, and is untouched by a header overwrite. The rest of the header is SQLite's
/// defaults for a UTF-8 store with no reserved bytes, its page count the file's length.
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#the_database_header>
struct RebuiltHeaderCopy {
    let path: String

    /// Nil when the header is not garbage (or no page size fits, or the copy fails).
    init?(of damagedPath: String) {
        guard let pageSize = Self.inferredPageSize(of: damagedPath) else { return nil }
        path = damagedPath + ".rebuilt-\(getpid())"
        let wal = FileManager.default.fileExists(atPath: damagedPath + "-wal")
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: damagedPath, toPath: path)
            if wal { try FileManager.default.copyItem(atPath: damagedPath + "-wal", toPath: path + "-wal") }
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            let copy = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? copy.close() }
            try copy.seek(toOffset: 0)
            try copy.write(contentsOf: Self.header(pageSize: pageSize, pages: size / pageSize, wal: wal))
        } catch {
            remove()
            return nil
        }
    }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The page size the pages show, when the header is not SQLite's (nil otherwise).
    /// A file that starts with SQLite's header is not read past it.
    static func inferredPageSize(of path: String) -> Int? {
        guard let header = StoreFileHeader.read(path), !header.starts(with: StoreFileHeader.magic),
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return inferredPageSize(in: [UInt8](data))
    }

    /// The page size the pages of `bytes` (a whole store file) show.
    static func inferredPageSize(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 1_024, !bytes.starts(with: StoreFileHeader.magic) else { return nil }
        var best: (size: Int, score: Double)?
        var size = 512
        while size <= 65_536 {
            defer { size *= 2 }
            guard bytes.count % size == 0, bytes.count / size >= 2, isBTreePage(bytes, at: 100, pageStart: 0, size: size) else { continue }
            let pages = bytes.count / size
            let valid = (1..<pages).filter { isBTreePage(bytes, at: $0 * size, pageStart: $0 * size, size: size) }.count + 1
            let score = Double(valid) * Double(valid) / Double(pages)
            if score > (best?.score ?? 0) { best = (size, score) }
        }
        return best?.size
    }

    /// Whether the b-tree page header at `offset` is plausible for a page of `size`
    /// starting at `pageStart`: its type, its cell count, its cell area within the page.
    static func isBTreePage(_ bytes: [UInt8], at offset: Int, pageStart: Int, size: Int) -> Bool {
        guard offset + 12 <= bytes.count, [2, 5, 10, 13].contains(bytes[offset]) else { return false }
        let cells = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
        let rawContent = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
        let content = rawContent == 0 ? 65_536 : rawContent
        let headerEnd = offset - pageStart + (bytes[offset] == 2 || bytes[offset] == 5 ? 12 : 8) + 2 * cells
        return content <= size && headerEnd <= content && cells <= size / 4
    }

    /// SQLite's header for a store of `pages` pages of `pageSize` bytes.
    static func header(pageSize: Int, pages: Int, wal: Bool) -> Data {
        var header = [UInt8](repeating: 0, count: 100)
        func put(_ value: Int, at offset: Int, bytes count: Int) {
            for index in 0..<count { header[offset + index] = UInt8(value >> (8 * (count - 1 - index)) & 0xFF) }
        }
        header.replaceSubrange(0..<16, with: StoreFileHeader.magic)
        put(pageSize == 65_536 ? 1 : pageSize, at: 16, bytes: 2)
        header[18] = wal ? 2 : 1  // write and read format versions: 2 for WAL
        header[19] = wal ? 2 : 1
        header[21] = 64  // payload fractions, fixed by the format
        header[22] = 32
        header[23] = 32
        put(1, at: 24, bytes: 4)      // file change counter
        put(pages, at: 28, bytes: 4)  // pages in the database, valid while 92 equals 24
        put(1, at: 40, bytes: 4)      // schema cookie
        put(4, at: 44, bytes: 4)      // schema format
        put(1, at: 56, bytes: 4)      // text encoding: UTF-8
        put(1, at: 92, bytes: 4)      // version-valid-for
        put(3_040_001, at: 96, bytes: 4)
        return Data(header)
    }
}
