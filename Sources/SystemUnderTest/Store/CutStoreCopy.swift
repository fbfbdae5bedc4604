import Foundation

/// A copy of a store whose file ends before the length its header gives (a cut tail:
/// a failed copy, a full disk, a power cut in an app that grew the file), with the
/// header's page count set to the pages the file still has. The damaged file itself is
/// never changed: it is the quarantine's evidence.
///
/// Related SQLite documentation: <https://www.sqlite.org/fileformat2.html#in_header_database_size>
struct CutStoreCopy {
    let path: String

    /// Nil when the store is not cut short (or cannot be read, or copied).
    init?(of damagedPath: String) {
        guard let handle = FileHandle(forReadingAtPath: damagedPath) else { return nil }
        defer { try? handle.close() }
        // As an array: indexes from 0 whatever the Data's slice (checked length: 100).
        guard let read = try? handle.read(upToCount: 100), read.count == 100,
              let size = try? handle.seekToEnd() else { return nil }
        let header = [UInt8](read)
        guard let pageSize = StoreFileHeader.pageSize(header) else { return nil }
        let declared = UInt32(header[28]) << 24 | UInt32(header[29]) << 16 | UInt32(header[30]) << 8 | UInt32(header[31])
        let present = UInt32(size / UInt64(pageSize))
        guard present > 0, declared > present else { return nil }
        path = damagedPath + ".salvage-\(getpid())"
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: damagedPath, toPath: path)
            let copy = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? copy.close() }
            try copy.truncate(atOffset: UInt64(present) * UInt64(pageSize))
            try copy.seek(toOffset: 28)
            try copy.write(contentsOf: [UInt8(present >> 24 & 0xFF), UInt8(present >> 16 & 0xFF), UInt8(present >> 8 & 0xFF), UInt8(present & 0xFF)])
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
