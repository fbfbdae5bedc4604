internal import CChaosVFS
import Foundation

/// Calls of one kind a seam carried out for the app, with what the app was told: the
/// store's `write` answered `SQLITE_IOERR_WRITE` three times, `notes.json`'s `sync`
/// answered `EIO` once, `rename` of `notes.json` answered `ok`. What the seams saw the
/// app do, whatever fault was armed — the part of a case's outcome no app can word.
///
/// Each seam keeps its own table in C (`Sources/CSeamCalls`): the fault VFS every call
/// SQLite makes on its files, the libc seam every call on a file under the data folder.
/// The worker takes what is new with each reply, so the controller knows the step the
/// calls came in; calls after the last reply of a worker that trapped or was killed are
/// not told.
package struct SeamCall: Codable, Sendable, Equatable {
    /// Which seam saw it: `sqlite` (the fault VFS) or `libc` (the libc seam).
    package var seam: Seam
    /// `open`, `read`, `write`, `sync`, `truncate`, `rename` (a new name), `delete`.
    package var op: StorageCall.Operation
    /// The file: its path under the data folder (`notes.json`, `store.sqlite-wal`), or
    /// its full path when it is elsewhere; empty for SQLite's temporary files.
    package var file: String
    /// `ok`, or what the call answered: an errno's name (`EIO`) from the libc seam, an
    /// SQLite result code's (`SQLITE_IOERR_WRITE`) from the fault VFS.
    package var result: String
    package var count: Int

    package enum Seam: String, Codable, Sendable, CaseIterable {
        case sqlite, libc
    }

    package static let ok = "ok"
    /// The result of the line that counts calls a full table did not keep.
    package static let dropped = "dropped"

    package init(seam: Seam, op: StorageCall.Operation, file: String, result: String, count: Int) {
        self.seam = seam
        self.op = op
        self.file = file
        self.result = result
        self.count = count
    }

    /// Adds `call` to `calls`: to the count of the same call with the same result, or as a new one.
    package static func add(_ call: SeamCall, to calls: inout [SeamCall]) {
        if let at = calls.firstIndex(where: { $0.seam == call.seam && $0.op == call.op && $0.file == call.file && $0.result == call.result }) {
            calls[at].count += call.count
        } else {
            calls.append(call)
        }
    }

    /// Whether the call failed.
    package var failed: Bool { result != Self.ok && result != Self.dropped }

    /// Both seams' calls since the last take, a file under the data folder named by its
    /// path below `prefix` (``StoragePathPrefix``); forgets them.
    package static func take(prefix: String) -> [SeamCall] {
        var calls = lines(capacity: 1 << 16) { chaos_vfs_take_calls($0, $1) }.compactMap {
            call($0, seam: .sqlite, prefix: prefix)
        }
        calls += LibcSeam.takeCalls().compactMap { call($0, seam: .libc, prefix: prefix) }
        // Files a seam told apart may be filed under one name (two unnamed files).
        var merged: [SeamCall] = []
        for call in calls { add(call, to: &merged) }
        return merged
    }

    /// One line a seam's table wrote: `OP RESULT COUNT FILE`, or `dropped N` (told as a
    /// call of its own, so the count of what a case saw is never silently short).
    package static func call(_ line: Substring, seam: Seam, prefix: String) -> SeamCall? {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        if fields.first == "dropped", fields.count == 2, let count = Int(fields[1]) {
            return SeamCall(seam: seam, op: .open, file: "", result: dropped, count: count)
        }
        guard fields.count >= 3, let op = Int32(fields[0]), let code = Int32(fields[1]), let count = Int(fields[2]),
              let operation = seam == .sqlite ? StorageFaultPolicy.operation(of: op) : LibcSeam.operation(of: op) else { return nil }
        let result = code == 0 ? ok : seam == .sqlite ? sqliteName(code) : errnoName(code)
        return SeamCall(seam: seam, op: operation, file: name(fields.count == 4 ? String(fields[3]) : "", prefix: prefix), result: result, count: count)
    }

    /// A path as a call is filed: below the data folder (`prefix`) by its path there, the
    /// folder itself `.`, a file made with `O_TMPFILE` and not yet linked (the libc seam
    /// names it `#INODE`) `#unnamed` in its folder, so that runs compare; elsewhere, whole.
    package static func name(_ path: String, prefix: String) -> String {
        guard path.hasPrefix(prefix) || path + "/" == prefix else { return path }
        let below = String(path.dropFirst(min(prefix.count, path.count)))
        guard !below.isEmpty else { return "." }
        var parts = below.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = parts.last, last.first == "#", last.dropFirst().allSatisfy(\.isNumber), last.count > 1 { parts[parts.count - 1] = "#unnamed" }
        return parts.joined(separator: "/")
    }

    /// The lines one of the seams' take functions writes into a buffer of `capacity`.
    /// The buffer is not zeroed first: a take writes a terminated text, so a reply pays
    /// for what the seams saw, not for the buffer's size.
    static func lines(capacity: Int, _ take: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> [Substring] {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress, take(base, Int32(buffer.count)) > 0 else { return [] }
            return String(cString: base).split(separator: "\n")
        }
    }

    /// An errno by its name: the ones a file call meets, else `errno N`.
    package static func errnoName(_ code: Int32) -> String {
        let names: [Int32: String] = [
            EIO: "EIO", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM",
            ENOENT: "ENOENT", EEXIST: "EEXIST", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", ENOTEMPTY: "ENOTEMPTY",
            EBUSY: "EBUSY", EAGAIN: "EAGAIN", EINTR: "EINTR", EBADF: "EBADF", EXDEV: "EXDEV", EFBIG: "EFBIG",
            EMFILE: "EMFILE", EINVAL: "EINVAL", ENAMETOOLONG: "ENAMETOOLONG", ELOOP: "ELOOP", ENOMEM: "ENOMEM",
        ]
        return names[code] ?? "errno \(code)"
    }

    /// An SQLite result code by its name (sqlite3.h): the ones a VFS call answers, else
    /// `SQLite code N`.
    package static func sqliteName(_ code: Int32) -> String {
        let names: [Int32: String] = [
            1: "SQLITE_ERROR", 3: "SQLITE_PERM", 5: "SQLITE_BUSY", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
            10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN",
            266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
            1034: "SQLITE_IOERR_FSYNC", 1290: "SQLITE_IOERR_DIR_FSYNC", 1546: "SQLITE_IOERR_TRUNCATE",
            1802: "SQLITE_IOERR_FSTAT", 2570: "SQLITE_IOERR_DELETE", 3850: "SQLITE_IOERR_LOCK",
            4874: "SQLITE_IOERR_SHMSIZE", 5898: "SQLITE_IOERR_DELETE_NOENT", 6154: "SQLITE_IOERR_MMAP",
            8202: "SQLITE_IOERR_DATA", 526: "SQLITE_CANTOPEN_ISDIR", 270: "SQLITE_CANTOPEN_NOTEMPDIR",
            782: "SQLITE_CANTOPEN_FULLPATH", 1032: "SQLITE_READONLY_DBMOVED", 264: "SQLITE_READONLY_RECOVERY",
        ]
        return names[code] ?? "SQLite code \(code)"
    }
}
