import Foundation
import Synchronization

/// The controller's scratch folders name their owner: `chaos-PID-WHAT-XXXXXXXX` in the
/// temporary folder. A controller killed with SIGKILL cannot remove its own; the next
/// one removes those whose owner is no longer alive (a pid that is alive again, reused,
/// keeps its folder: nothing is removed that may still be in use).
package enum ScratchFolder {
    package static let prefix = "chaos-"

    /// A new folder for `what` (a scenario's name, `describe`), owned by this process.
    package static func make(in root: URL, for what: String) throws -> URL {
        removeAbandonedOnce(in: root)
        let url = root.appendingPathComponent("\(prefix)\(getpid())-\(what)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
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
            guard let pid = owner(of: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            if remove(root.appendingPathComponent(name)) { removed.append(name) }
        }
        return removed
    }

    /// Removes a scratch folder whole, write bits restored first (a read-only fault may
    /// have cleared them). False when it could not.
    @discardableResult
    package static func remove(_ url: URL) -> Bool {
        if let enumerator = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in enumerator { _ = chmod(url.appendingPathComponent(path).path, 0o755) }
        }
        _ = chmod(url.path, 0o755)
        return (try? FileManager.default.removeItem(at: url)) != nil
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
