import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The end of a file a child wrote (a worker's stderr): read from the end, never whole.
/// A target that wrote a gigabyte before it trapped costs the controller what the tail
/// costs; the runtime's `Fatal error:` line and backtrace are the last thing it writes.
package enum OutputTail {
    /// 256 KiB: room for a backtrace of every thread of a debug build.
    package static let defaultBytes = 256 << 10

    /// The last `bytes` of `file` as text (from the first whole line when cut), with a
    /// first line saying how much came before; "" when it cannot be read.
    package static func read(_ file: URL, bytes: Int = defaultBytes) -> String {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "" }
        let size = Int(info.st_size)
        let start = max(0, size - bytes)
        var data = [UInt8](repeating: 0, count: min(size, bytes))
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled, off_t(start + filled)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        var tail = data[..<filled]
        guard start > 0 else { return String(decoding: tail, as: UTF8.self) }
        if let newline = tail.firstIndex(of: UInt8(ascii: "\n")) { tail = tail[(newline + 1)...] }
        return "[\(start + (filled - tail.count)) earlier bytes not read]\n" + String(decoding: tail, as: UTF8.self)
    }
}
