import ChaosTarget
import Foundation

/// The database as SQLite reads it, page by page: each page of the main file, or its
/// newest committed frame in the WAL when it has one. Two images tell whether file
/// damage changed anything SQLite reads: bytes in a page the WAL shadows, or past the
/// database's end, change the file and nothing else.
///
/// The WAL is read as SQLite reads it: a header with a valid checksum, then frames
/// whose salts match it and whose cumulative checksums hold, up to the last commit
/// frame. A WAL that fails its header check is ignored whole, as SQLite ignores it; so
/// is the WAL of a database file of zero bytes, which SQLite deletes at open.
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#walformat>
struct DatabaseImage: Equatable {
    /// Page number (1-based) → hash of the bytes SQLite reads for it (``PageHash``).
    var pages: [Int: UInt64] = [:]
    /// Pages whose newest version is in the WAL.
    var fromWAL: Set<Int> = []
    /// Main-file page number → hash of the main file's own bytes (shadowed or not).
    var mainPages: [Int: UInt64] = [:]
    var pageSize = 4096
    var hasSQLiteHeader = false

    static let header = Array("SQLite format 3\u{0}".utf8)

    /// The image of the store at `store` (nil when there is no such file), read a chunk
    /// of pages at a time (``FileChunks``).
    static func read(store: URL) -> DatabaseImage? {
        var image = DatabaseImage()
        guard let header = FileChunks.head(store.path, 100) else { return nil }
        image.hasSQLiteHeader = header.count >= 100 && Array(header[0..<16]) == Self.header
        if image.hasSQLiteHeader {
            let size = Int(header[16]) << 8 | Int(header[17])
            image.pageSize = size == 1 ? 65_536 : max(512, size)
        }
        var page = 0
        let chunk = image.pageSize * max(1, (1 << 20) / image.pageSize)
        guard let length = FileChunks.read(store.path, size: chunk, { raw in
            for start in stride(from: 0, to: raw.count, by: image.pageSize) {
                page += 1
                let hash = PageHash.of(UnsafeRawBufferPointer(rebasing: raw[start..<min(raw.count, start + image.pageSize)]))
                image.mainPages[page] = hash
                image.pages[page] = hash
            }
        }) else { return nil }
        // A database file of zero bytes is an empty database: SQLite deletes its WAL unread.
        let wal = length == 0 ? [] : (try? Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))).map { [UInt8]($0) } ?? []
        for (page, hash) in WALFrames.committed(in: wal) {
            image.pages[page] = hash
            image.fromWAL.insert(page)
        }
        return image
    }

    /// The pages whose bytes, as SQLite reads them, differ between two images.
    static func changedPages(_ before: DatabaseImage?, _ after: DatabaseImage?) -> Set<Int> {
        let pages = Set((before?.pages ?? [:]).keys).union((after?.pages ?? [:]).keys)
        return pages.filter { before?.pages[$0] != after?.pages[$0] }
    }

    /// The main-file pages whose own bytes differ, whether SQLite reads them or not.
    static func changedMainPages(_ before: DatabaseImage?, _ after: DatabaseImage?) -> Set<Int> {
        let pages = Set((before?.mainPages ?? [:]).keys).union((after?.mainPages ?? [:]).keys)
        return pages.filter { before?.mainPages[$0] != after?.mainPages[$0] }
    }
}

/// A page's fingerprint, to tell two versions of it apart: FNV-1a over 64-bit words (then
/// the odd bytes), so that the images of a store and its WAL before and after each file
/// fault cost little. Compared between two images of one case only, never kept.
enum PageHash {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01b3
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x0000_0100_0000_01b3
            offset += 1
        }
        return hash ^ UInt64(bytes.count)
    }
}

/// The committed frames of a WAL file, as SQLite's recovery accepts them.
enum WALFrames {
    /// Page → hash of its newest committed frame.
    static func committed(in wal: [UInt8]) -> [Int: UInt64] {
        wal.withUnsafeBytes { committed(in: $0) }
    }

    private static func committed(in wal: UnsafeRawBufferPointer) -> [Int: UInt64] {
        guard wal.count >= 32 else { return [:] }
        let magic = word(wal, 0, bigEndian: true)
        guard magic == 0x377F_0682 || magic == 0x377F_0683 else { return [:] }
        let bigEndian = magic & 1 == 1
        let pageSize = Int(word(wal, 8, bigEndian: true)) == 1 ? 65_536 : Int(word(wal, 8, bigEndian: true))
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return [:] }
        var sum = checksum(wal, 0..<24, seed: (0, 0), bigEndian: bigEndian)
        guard sum.0 == word(wal, 24, bigEndian: true), sum.1 == word(wal, 28, bigEndian: true) else { return [:] }
        let salts = (word(wal, 16, bigEndian: true), word(wal, 20, bigEndian: true))
        var committed: [Int: UInt64] = [:]
        var pending: [Int: UInt64] = [:]
        var offset = 32
        while offset + 24 + pageSize <= wal.count {
            let frame = offset
            guard (word(wal, frame + 8, bigEndian: true), word(wal, frame + 12, bigEndian: true)) == salts else { break }
            sum = checksum(wal, frame..<(frame + 8), seed: sum, bigEndian: bigEndian)
            sum = checksum(wal, (frame + 24)..<(frame + 24 + pageSize), seed: sum, bigEndian: bigEndian)
            guard sum.0 == word(wal, frame + 16, bigEndian: true), sum.1 == word(wal, frame + 20, bigEndian: true) else { break }
            pending[Int(word(wal, frame, bigEndian: true))] = PageHash.of(UnsafeRawBufferPointer(rebasing: wal[(frame + 24)..<(frame + 24 + pageSize)]))
            if word(wal, frame + 4, bigEndian: true) != 0 {  // a commit frame: everything so far counts
                committed.merge(pending) { _, new in new }
                pending = [:]
            }
            offset += 24 + pageSize
        }
        return committed
    }

    /// The 32-bit word at `offset`, in the byte order named (the WAL's header words are
    /// big-endian; its checksums, in the order its magic names).
    static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int, bigEndian: Bool) -> UInt32 {
        let stored = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: stored) : UInt32(littleEndian: stored)
    }

    /// SQLite's WAL checksum (wal.c, walChecksumBytes): over 32-bit word pairs in the
    /// byte order the magic names, carried from the seed.
    static func checksum(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, seed: (UInt32, UInt32), bigEndian: Bool) -> (UInt32, UInt32) {
        var (s1, s2) = seed
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            s1 = s1 &+ word(bytes, offset, bigEndian: bigEndian) &+ s2
            s2 = s2 &+ word(bytes, offset + 4, bigEndian: bigEndian) &+ s1
            offset += 8
        }
        return (s1, s2)
    }
}
