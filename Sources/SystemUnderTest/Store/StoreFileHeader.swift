import Foundation

/// What the first 100 bytes of a store file say, for the salvage paths that read the
/// file themselves (``CutStoreCopy``, ``RebuiltHeaderCopy``, ``PageScan``).
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#the_database_header>
enum StoreFileHeader {
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// The first 100 bytes of the file at `path` (fewer when it is shorter), read alone.
    static func read(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 100)).map { [UInt8]($0) }
    }

    /// The page size a valid header states; nil when the bytes are not SQLite's header
    /// or the size is not one SQLite allows.
    static func pageSize(_ header: [UInt8]) -> Int? {
        guard header.count >= 100, header.starts(with: magic) else { return nil }
        let raw = Int(header[16]) << 8 | Int(header[17])
        let size = raw == 1 ? 65_536 : raw
        return size >= 512 && size <= 65_536 && size.nonzeroBitCount == 1 ? size : nil
    }
}
