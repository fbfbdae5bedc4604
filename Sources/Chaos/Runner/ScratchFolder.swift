import Foundation
import Synchronization

/// The controller's scratch folders name their owner: `chaos-PID-WHAT-XXXXXXXX` in the
/// temporary folder. A controller killed with SIGKILL cannot remove its own; the next
/// one removes those whose owner is no longer alive (a pid that is alive again, reused,
/// keeps its folder: nothing is removed that may still be in use).
///
/// A name is not enough to make a folder Chaos's: a user's `chaos-2024-holiday-photos`
/// matches the pattern. Each scratch folder holds a mark, ``markName``, written when it
/// is made (a regular file, not a link, saying whose it is); only a real folder of this
/// user's that holds its mark, word for word, is ever removed as abandoned.
package enum ScratchFolder {
    package static let prefix = "chaos-"
    /// The file inside every scratch folder that says it is Chaos's.
    package static let markName = ".chaos-scratch"

    /// A new folder for `what` (a scenario's name, `describe`), owned by this process.
    package static func make(in root: URL, for what: String) throws -> URL {
        removeAbandonedOnce(in: root)
        let name = "\(prefix)\(getpid())-\(what)-\(UUID().uuidString.prefix(8))"
        let url = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let mark = open(url.appendingPathComponent(markName).path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard mark >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        let text = Array(markText(for: name).utf8)
        let written = text.withUnsafeBytes { write(mark, $0.baseAddress, $0.count) }
        close(mark)
        guard written == text.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        return url
    }

    /// What the mark of the folder `name` says.
    static func markText(for name: String) -> String { "chaos scratch folder \(name)\n" }

    /// Whether `name` in `root` is a scratch folder Chaos made: a folder (not a link) of
    /// this user's, holding its mark as a regular file with the words ``make`` wrote.
    static func isMarked(_ name: String, in root: URL) -> Bool {
        let path = root.appendingPathComponent(name).path
        var folder = stat()
        guard lstat(path, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR, folder.st_uid == geteuid() else { return false }
        let mark = open(path + "/" + markName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard mark >= 0 else { return false }
        defer { close(mark) }
        var file = stat()
        let expected = Array(markText(for: name).utf8)
        guard fstat(mark, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_size == expected.count else { return false }
        var bytes = [UInt8](repeating: 0, count: expected.count)
        let read = bytes.withUnsafeMutableBytes { Glibc.read(mark, $0.baseAddress, $0.count) }
        return read == expected.count && bytes == expected
    }

    /// The owner's pid of a folder named by ``make(in:for:)``, nil for any other name.
    package static func owner(of name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
        guard !digits.isEmpty, name.dropFirst(prefix.count + digits.count).first == "-" else { return nil }
        return pid_t(digits)
    }

    /// Removes the scratch folders in `root` whose owner is gone. Returns their names.
    @discardableResult
    package static func removeAbandoned(in root: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var removed: [String] = []
        for name in names {
            guard let pid = owner(of: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH, isMarked(name, in: root) else { continue }
            if remove(root.appendingPathComponent(name)) { removed.append(name) }
        }
        return removed
    }

    /// Removes a scratch folder whole, write bits restored first (a read-only fault may
    /// have cleared them). False when it could not.
    @discardableResult
    package static func remove(_ url: URL) -> Bool {
        removeTree(url.path)
    }

    /// Removes `path` and all it holds, each folder's write bits restored before it is
    /// emptied: POSIX calls on paths, no URL made per entry (a sweep removes a folder a
    /// trial). Symbolic links are removed, never followed.
    private static func removeTree(_ path: String) -> Bool {
        if unlink(path) == 0 || errno == ENOENT { return true }
        _ = chmod(path, 0o755)
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return false }
        let emptied = empty(folder)
        return rmdir(path) == 0 && emptied
    }

    /// Removes what the open folder `descriptor` holds, and closes it. Names are taken
    /// as bytes (a target may write any), all read before any is removed.
    private static func empty(_ descriptor: Int32) -> Bool {
        guard let folder = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(folder) }
        var names: [[CChar]] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                bytes.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0]
            }
            if name != [46, 0], name != [46, 46, 0] { names.append(name) }
        }
        var removed = true
        for name in names {
            if unlinkat(descriptor, name, 0) == 0 || errno == ENOENT { continue }
            _ = fchmodat(descriptor, name, 0o755, 0)
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let emptied = child >= 0 && empty(child)
            if !(emptied && unlinkat(descriptor, name, AT_REMOVEDIR) == 0) { removed = false }
        }
        return removed
    }

    /// Removes abandoned scratch folders wherever a run may have made them: the temporary
    /// folder and a sweep's tmpfs. Every command does this first, so a controller killed
    /// with SIGKILL leaves nothing behind past the next command of any kind.
    package static func removeAbandonedEverywhere() {
        ProcessLeftovers.endAbandoned()
        // /dev/shm whatever TMPDIR says now: the run that left it may have said otherwise.
        let roots = [FileManager.default.temporaryDirectory.standardizedFileURL.path, "/dev/shm"]
        for root in Set(roots) where access(root, W_OK) == 0 {
            removeAbandonedOnce(in: URL(fileURLWithPath: root, isDirectory: true))
        }
    }

    /// Where a sweep's trials and a hunt's schedules keep their scratch: `/dev/shm` when it
    /// is a tmpfs with room and the user did not choose (`TMPDIR`), else `current`. Their
    /// power cuts are simulated (and a full disk is a tmpfs of its own): on a real disk,
    /// a third of a trial's time went to fsync for nothing, and a hunt's CPU to the file
    /// system's journal.
    package static func trialRoot(_ current: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        guard environment["TMPDIR"] == nil, current.standardizedFileURL == FileManager.default.temporaryDirectory.standardizedFileURL
        else { return current }
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var info = statvfs()
        let isTmpfs = mounts.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[1] == "/dev/shm" && fields[2] == "tmpfs"
        }
        guard isTmpfs,
              statvfs("/dev/shm", &info) == 0, UInt64(info.f_bavail) * UInt64(info.f_frsize) >= 512 << 20,
              access("/dev/shm", W_OK) == 0
        else { return current }
        return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    }

    private static let cleaned = Mutex<Set<String>>([])

    private static func removeAbandonedOnce(in root: URL) {
        let first = cleaned.withLock { $0.insert(root.path).inserted }
        if first { removeAbandoned(in: root) }
    }
}
