import Foundation

/// A file lock a process holds, as the kernel shows it under `/proc/PID/fdinfo/N`
/// (`lock:	1: POSIX  ADVISORY  WRITE 4242 08:01:1234 1073741825 1073741825`), with the
/// path of the descriptor it was taken through (`/proc/PID/fd/N`, as the process sees it).
struct HeldLock: Equatable {
    /// `POSIX` (fcntl, what SQLite takes), `FLOCK`, `OFDLCK`.
    var kind: String
    var write: Bool
    var path: String
    /// The byte range, as the kernel writes it (`EOF` for a lock to the end).
    var start: String
    var end: String

    /// `a write lock on app.sqlite-shm (POSIX, bytes 120–120)`.
    var words: String {
        "a \(write ? "write" : "read") lock on \(URL(fileURLWithPath: path).lastPathComponent) (\(kind), bytes \(start)–\(end))"
    }
}

/// The locks of a running process, read from `/proc`.
enum HeldLocks {
    /// Every lock `pid` holds through one of its descriptors; empty when it holds none or
    /// its `/proc` entries cannot be read.
    static func of(pid: pid_t) -> [HeldLock] {
        let folder = "/proc/\(pid)/fdinfo"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return descriptors.flatMap { descriptor -> [HeldLock] in
            guard let info = try? String(contentsOfFile: folder + "/" + descriptor, encoding: .utf8), info.contains("lock:"),
                  let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)") else { return [] }
            return parse(fdinfo: info, path: path)
        }
    }

    /// The locks that keep another process of the app (its widget, its extension) from
    /// writing — what iOS will not let a suspended app hold in a shared container: every
    /// write lock (SQLite's RESERVED, PENDING and EXCLUSIVE on a store, the WAL's write,
    /// checkpoint and recovery locks on its index, an exclusive `flock`), and a shared
    /// lock on a file that is not in WAL mode (a rollback-journal store's read under way,
    /// a shared `flock`). Not the shared locks of WAL mode: every open connection holds
    /// one on the store and one on its index (`-shm`) for as long as it is open, idle or
    /// not, and readers take theirs on the index; GRDB's suspension lets WAL reads go on.
    static func blocking(_ locks: [HeldLock]) -> [HeldLock] {
        let inWAL = Set(locks.filter { $0.path.hasSuffix("-shm") }.map { String($0.path.dropLast(4)) })
        return locks.filter { $0.write || !($0.path.hasSuffix("-shm") || inWAL.contains($0.path)) }
    }

    /// The `lock:` lines of one descriptor's fdinfo.
    static func parse(fdinfo: String, path: String) -> [HeldLock] {
        fdinfo.split(separator: "\n").compactMap { line -> HeldLock? in
            guard line.hasPrefix("lock:") else { return nil }
            // "lock:", "1:", KIND, ADVISORY, READ|WRITE, PID, DEV:INODE, START, END
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count >= 9 else { return nil }
            return HeldLock(kind: fields[2], write: fields[4] == "WRITE", path: path, start: fields[7], end: fields[8])
        }
    }

    /// Waits until `pid` is stopped (state `T` in `/proc/PID/stat`), at most `bound`;
    /// whether it is.
    static func waitUntilStopped(pid: pid_t, bound: Duration = .seconds(2)) -> Bool {
        let clock = ContinuousClock()
        let until = clock.now + bound
        repeat {
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = stat.lastIndex(of: ")"), let state = stat[close...].dropFirst(2).first {
                if state == "T" || state == "t" { return true }
                if state == "Z" || state == "X" { return false }
            } else {
                return false
            }
            Thread.sleep(forTimeInterval: 0.001)
        } while clock.now < until
        return false
    }
}
