import Foundation
import ChaosTarget

/// A real, small disk for one case: a tmpfs mounted over the app's data folder in a
/// private mount namespace, so a full disk is the kernel's own ENOSPC, not a VFS
/// answer.
///
/// A holder process (`unshare --mount`) keeps the namespace alive for the whole case,
/// and not a moment past its controller: it waits on a pipe only the controller holds
/// open (`read`), so the controller's end, killed or not, closes it and the holder exits;
/// it also carries the case's mark, so the next command ends one that is somehow left.
/// workers enter it with `nsenter`, so the data survives relaunches. The controller
/// reaches the files through `/proc/PID/root`, the holder's view of the file system.
/// Hosts that forbid mount namespaces (many CI containers) fail the probe: the case is
/// then skipped with the reason, never silently passed.
final class TmpfsDisk {
    let directory: URL
    private let holder: ChildProcess
    static let ballastName = "chaos-ballast"

    private init(directory: URL, holder: ChildProcess) {
        self.directory = directory
        self.holder = holder
    }

    /// Mounts a tmpfs of `sizeBytes` over `directory`, or says why it cannot.
    static func mount(over directory: URL, sizeBytes: Int, stderrFile: URL, mark: String,
                      deadline: ContinuousClock.Instant) -> Result<TmpfsDisk, TmpfsUnavailable> {
        // CHAOS_UNSHARE stands in for unshare(1), so a test can play a host that forbids it.
        let override = ProcessInfo.processInfo.environment["CHAOS_UNSHARE"]
        guard let unshare = override ?? Self.tool("unshare"), Self.tool("nsenter") != nil else {
            return .failure(TmpfsUnavailable(reason: "unshare and nsenter (util-linux) are not installed"))
        }
        // `read` returns at the end of its input: when the controller closes the pipe or dies.
        let script = #"mount -t tmpfs -o size="$1" chaos-tmpfs "$0" && echo mounted && while read -r _; do :; done"#
        let holder: ChildProcess
        do {
            holder = try ChildProcess(
                executable: unshare, arguments: ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", script,
                                                 directory.path, String(sizeBytes)],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", ProcessLeftovers.markVariable: mark], stderrFile: stderrFile)
        } catch {
            return .failure(TmpfsUnavailable(reason: String(describing: error)))
        }
        switch holder.readLine(deadline: deadline) {
        case .line("mounted"):
            return .success(TmpfsDisk(directory: directory, holder: holder))
        default:
            holder.killAndReap()
            let said = ((try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(TmpfsUnavailable(reason: said.isEmpty ? "the tmpfs could not be mounted" : said))
        }
    }

    /// The data folder as the controller sees it (inside the namespace, via /proc).
    var hostView: URL {
        URL(fileURLWithPath: "/proc/\(holder.pid)/root" + directory.path)
    }

    /// Runs a worker inside the namespace.
    func wrap(_ command: WorkerCommand) -> WorkerCommand {
        var wrapped = command
        wrapped.executable = Self.tool("nsenter") ?? "/usr/bin/nsenter"
        wrapped.arguments = ["--target", String(holder.pid), "--mount", "--", command.executable] + command.arguments
        return wrapped
    }

    /// Fills the disk with a ballast file until the kernel says ENOSPC.
    func fill() throws -> String {
        let ballast = hostView.appendingPathComponent(Self.ballastName)
        let descriptor = open(ballast.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ChaosError.io("cannot create the ballast \(ballast.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0xA5, count: 64 * 1024)
        var written = 0
        var reason = ""
        while true {
            let count = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { written += count; continue }
            if count < 0 && errno == EINTR { continue }
            reason = count < 0 ? String(cString: strerror(errno)) : "no progress"
            break
        }
        _ = fsync(descriptor)
        return "filled the tmpfs with \(written) bytes of ballast until the kernel said: \(reason)"
    }

    /// Frees the space again, and says how much there is: a ballast that could not be
    /// removed, or a disk still full after it, is the harness's failure, never the app's
    /// (a save that fails after `clear` would read as the app not recovering).
    /// A removed file's space comes back only once no process holds it open: the wait
    /// for it is bounded, and a disk still full names who holds the ballast.
    func drain() throws -> String {
        let ballast = hostView.appendingPathComponent(Self.ballastName).path
        guard unlink(ballast) == 0 || errno == ENOENT else {
            throw ChaosError.io("cannot remove the ballast \(ballast): \(String(cString: strerror(errno)))")
        }
        let started = ContinuousClock.now
        while true {
            var info = statvfs()
            guard statvfs(hostView.path, &info) == 0 else { return "removed the ballast" }
            let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
            if free >= UInt64(Self.roomAfterDrain) {
                let waited = (ContinuousClock.now - started).wholeMilliseconds
                return "removed the ballast: \(free) bytes free again" + (waited > 0 ? " (after \(waited) ms)" : "")
            }
            guard ContinuousClock.now - started < .seconds(2) else {
                let holders = Self.holders(of: Self.ballastName)
                throw ChaosError.io("the tmpfs still has only \(free) bytes free 2 s after its ballast was removed"
                    + (holders.isEmpty ? ": the app's own files fill it" : "; the ballast is still open in " + holders.joined(separator: ", ")))
            }
            usleep(5_000)
        }
    }

    /// The processes that hold a file of that name open (its space not yet freed).
    static func holders(of name: String) -> [String] {
        ProcessTable.entries().filter { entry in
            let folder = "/proc/\(entry.pid)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + fd))?.contains(name) == true
            }
        }.map(ProcessTable.describe)
    }

    /// The room a drained disk must have again: enough for the app to save once more.
    static let roomAfterDrain = 1 << 20

    /// Ends the namespace; the tmpfs and everything on it go with it.
    func unmount() {
        holder.killAndReap()
    }

    private static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct TmpfsUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
