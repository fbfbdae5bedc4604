import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file read through one reused buffer, a chunk at a time: what a fault's effect is
/// measured on (a store, a backups folder) may be a million records, and reading it
/// whole held it in memory twice (`Data`, then an array) beside the case's evidence.
enum FileChunks {
    /// Calls `body` with each chunk of `path` in order (every chunk `size` bytes but the
    /// last). Returns the bytes read, nil when the file cannot be opened.
    @discardableResult
    static func read(_ path: String, size: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void) -> Int? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return nil }
        var total = 0
        while true {
            // A chunk is filled before it is handed on, so chunks stay aligned to `size`.
            var filled = 0
            while filled < size {
                let count = Glibc.read(descriptor, base + filled, size - filled)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                filled += count
            }
            guard filled > 0 else { return total }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            total += filled
            if filled < size { return total }
        }
    }

    /// The first `count` bytes of `path` (fewer when it is shorter); nil when it cannot be opened.
    static func head(_ path: String, _ count: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return ((try? handle.read(upToCount: count)) ?? nil).map { [UInt8]($0) } ?? []
    }
}
