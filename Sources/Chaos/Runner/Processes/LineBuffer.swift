import Foundation

extension ChildProcess {
    /// 16 MiB: a snapshot of 100,000 records is a few MiB; `CHAOS_MAX_LINE_MB` raises it
    /// for a target whose snapshot is larger.
    package static let defaultMaxLineBytes: Int = {
        let megabytes = ProcessInfo.processInfo.environment["CHAOS_MAX_LINE_MB"].flatMap(Int.init) ?? 16
        return max(1, min(megabytes, 4_096)) << 20
    }()

    /// What `readLine(deadline:)` found.
    package enum LineResult: Sendable, Equatable {
        case line(String)
        case endOfFile
        case timedOut
        /// A line that is not UTF-8 (it is dropped; the next read goes on).
        case invalidUTF8
        /// A line longer than ``maxLineBytes``: the child's output is closed, and the
        /// next read says end of file.
        case tooLong(Int)
    }
}

/// The bytes a child wrote that make no whole line yet, and the lines they make: at
/// most ``maxLineBytes`` held, whatever the child writes.
struct LineBuffer {
    var maxLineBytes: Int
    private var bytes: [UInt8] = []
    /// Bytes already searched for a newline: a long line (a snapshot of 100,000 records
    /// is megabytes) is scanned once, not once per chunk.
    private var scanned = 0

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// The next whole line, or `tooLong` once the bytes held pass the limit without a
    /// newline (they are dropped); nil when more bytes are needed.
    mutating func next() -> ChildProcess.LineResult? {
        if let newline = bytes[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(validating: bytes[..<newline], as: UTF8.self)
            bytes.removeSubrange(...newline)
            scanned = 0
            return line.map(ChildProcess.LineResult.line) ?? .invalidUTF8
        }
        scanned = bytes.count
        guard bytes.count > maxLineBytes else { return nil }
        let length = bytes.count
        clear()
        return .tooLong(length)
    }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    mutating func clear() {
        bytes = []
        scanned = 0
    }
}
