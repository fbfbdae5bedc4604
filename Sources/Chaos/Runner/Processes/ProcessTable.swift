import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One process as `/proc/PID/stat` shows it: enough to tell whether a worker started it.
package struct ProcessEntry: Sendable, Equatable {
    package var pid: pid_t
    package var parent: pid_t
    package var group: pid_t
    package var session: pid_t
    /// `R`, `S`, `D`, `Z` (a zombie: ended, not yet reaped), …
    package var state: Character
    /// When it started, in clock ticks since boot: a process that started before a
    /// case's first worker cannot be one of its descendants.
    package var startTicks: UInt64
    /// The executable's short name (`comm`).
    package var name: String
    /// The CPU time all its threads have used, user and system, in clock ticks: whether a
    /// worker that keeps a case waiting is at work or waiting itself.
    package var cpuTicks: UInt64 = 0

    package var isZombie: Bool { state == "Z" || state == "X" }

    /// The Swift runtime's backtracer (`swift-backtrace`, `swift-backtrace-static`: one
    /// `comm`), which a trapping worker starts in its group. A second thread that traps
    /// after the runtime put the default handlers back ends the worker mid-backtrace, and
    /// the backtracer waits on forever: the runtime's, ended without naming it as the app's.
    package var isSwiftBacktracer: Bool { name.hasPrefix("swift-backtrac") }
}

/// The machine's processes, read from `/proc`: how the controller finds what a worker
/// left running (``ProcessLeftovers``). Linux only, like the rest of the runner.
package enum ProcessTable {
    /// Every process that can be read now (one that ends while the table is read is
    /// left out).
    package static func entries() -> [ProcessEntry] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var entries: [ProcessEntry] = []
        while let item = readdir(directory) {
            let pid = withUnsafeBytes(of: item.pointee.d_name) { raw in number(raw.prefix { $0 != 0 }[...]) }
            guard let pid, let entry = entry(pid_t(truncatingIfNeeded: pid)) else { continue }
            entries.append(entry)
        }
        return entries
    }

    /// This process's children, as the kernel lists them per thread
    /// (`/proc/self/task/*/children`); nil where it does not.
    package static func ownChildren() -> [ProcessEntry]? {
        guard let tasks = opendir("/proc/self/task") else { return nil }
        defer { closedir(tasks) }
        var pids: [pid_t] = []
        var listed = false
        while let item = readdir(tasks) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil, let text = read("/proc/self/task/\(name)/children", limit: 65_536) else { continue }
            listed = true
            pids += text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return listed ? pids.compactMap(entry) : nil
    }

    /// One process, or nil when it is gone.
    package static func entry(_ pid: pid_t) -> ProcessEntry? {
        guard let bytes = readBytes("/proc/\(pid)/stat", limit: 4_096) else { return nil }
        return parse(stat: bytes)
    }

    /// Parses a `/proc/PID/stat` line. The name sits in parentheses and may itself hold
    /// spaces and parentheses: the fields start after the last `)`.
    package static func parse(stat text: String) -> ProcessEntry? {
        parse(stat: Array(text.utf8))
    }

    /// The same, on the bytes as read: every case reads the table several times (each
    /// kill freezes a tree), so no string is split.
    static func parse(stat bytes: [UInt8]) -> ProcessEntry? {
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close,
              let pid = number(bytes[..<open]).map(pid_t.init(truncatingIfNeeded:)) else { return nil }
        // After the name: state(0) ppid(1) pgrp(2) session(3) … utime(11) stime(12) … starttime(19).
        var fields: [ArraySlice<UInt8>] = []
        var start = close + 1
        for index in (close + 1)...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n") {
            if index > start { fields.append(bytes[start..<index]) }
            start = index + 1
            if fields.count > 19 { break }
        }
        guard fields.count > 19, let state = fields[0].first, let parent = number(fields[1]), let group = number(fields[2]),
              let session = number(fields[3]), let startTicks = number(fields[19]),
              let userTicks = number(fields[11]), let systemTicks = number(fields[12]) else { return nil }
        return ProcessEntry(pid: pid, parent: pid_t(truncatingIfNeeded: parent), group: pid_t(truncatingIfNeeded: group),
                            session: pid_t(truncatingIfNeeded: session), state: Character(UnicodeScalar(state)), startTicks: startTicks,
                            name: String(decoding: bytes[(open + 1)..<close], as: UTF8.self), cpuTicks: userTicks &+ systemTicks)
    }

    /// The decimal number `digits` holds (spaces around it allowed); nil for anything else.
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        var seen = false
        for byte in digits where byte != UInt8(ascii: " ") {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = times + UInt64(byte - UInt8(ascii: "0"))
            seen = true
        }
        return seen ? value : nil
    }

    /// The value of variable `name` in the environment `pid` started with; nil when it
    /// has none, or it cannot be read (another user's process, a zombie).
    package static func environmentValue(of pid: pid_t, named name: String) -> String? {
        guard let data = readBytes("/proc/\(pid)/environ", limit: 1 << 20) else { return nil }
        let prefix = Array((name + "=").utf8)
        for entry in data.split(separator: 0, omittingEmptySubsequences: true) where entry.starts(with: prefix) {
            return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
        }
        return nil
    }

    /// The peak resident memory of `pid` so far, in KiB (`VmHWM`); nil when it is gone.
    /// (wait4's `ru_maxrss` will not do for a spawned child: it keeps the spawning
    /// process's size from before the exec.)
    package static func peakMemoryKB(of pid: pid_t) -> Int? {
        guard let status = read("/proc/\(pid)/status", limit: 8_192) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    /// How a report names a process: its pid and command line, shortened.
    package static func describe(_ entry: ProcessEntry) -> String {
        let arguments = readBytes("/proc/\(entry.pid)/cmdline", limit: 4_096)
            .map { bytes in String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
        let command = arguments.flatMap { $0.isEmpty ? nil : $0 } ?? entry.name
        return "pid \(entry.pid) (\(TerminalText.clean(String(command.prefix(120)))))"
    }

    private static func read(_ path: String, limit: Int) -> String? {
        readBytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// At most `limit` bytes of a `/proc` file (they report size 0: read until the end).
    private static func readBytes(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit, 4_096))
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if bytes.isEmpty, count < chunk.count {
                // The whole file in one read (a stat line): no second read to see its end.
                chunk.removeLast(chunk.count - count)
                return chunk
            }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
