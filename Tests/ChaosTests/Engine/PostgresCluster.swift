import Chaos
import Foundation

/// A throwaway PostgreSQL server for one test: its own cluster in a temporary folder,
/// on a free port of 127.0.0.1 only (no Unix socket), stopped and removed when the test
/// is done. Debian's `postgresql` package (`make test` installs it) is all it needs; a
/// system cluster that package may have started is never used.
///
/// `initdb` refuses to run as root: as root, every PostgreSQL program runs as the
/// `postgres` user the package makes (`runuser`), and the folder is handed to it.
final class PostgresCluster {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    /// The role the cluster was made with (a superuser, trusted on 127.0.0.1).
    let user = "postgres"
    private let folder: URL
    private let bin: URL
    private var running = true

    /// Makes and starts a cluster; waits until it accepts connections (`pg_ctl -w`).
    static func start() throws -> PostgresCluster {
        let bin = try binaries()
        let folder = try Self.folder()
        do {
            try run(bin, "initdb", ["-D", folder.appendingPathComponent("data").path, "-A", "trust", "-U", "postgres", "--no-sync"])
            // A port taken between the look and the start fails the start: try another.
            var failure = ""
            for _ in 1...3 {
                let port = try freePort()
                do {
                    try run(bin, "pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-l", folder.appendingPathComponent("log").path,
                                            "-w", "-t", "60", "-o", Self.serverOptions(port: port), "start"])
                    return PostgresCluster(port: port, folder: folder, bin: bin)
                } catch {
                    failure = "\(error)\n" + ((try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? "")
                }
            }
            throw Unavailable(description: "PostgreSQL did not start: \(failure)")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private init(port: Int, folder: URL, bin: URL) {
        self.port = port
        self.folder = folder
        self.bin = bin
    }

    /// Loopback only, no Unix socket (a long temporary path would not fit one); nothing
    /// in /dev/shm; no fsync, as a test's data is thrown away.
    private static func serverOptions(port: Int) -> String {
        "-p \(port) -k '' -c listen_addresses=127.0.0.1 -c fsync=off -c dynamic_shared_memory_type=mmap"
    }

    /// Stops the server (waiting until it has exited) and removes its folder.
    func stop() {
        if running {
            _ = try? Self.run(bin, "pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
            running = false
        }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// The programs of the newest PostgreSQL installed (Debian keeps them off PATH).
    private static func binaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last(where: {
            FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("\($0)/bin/initdb").path)
        }) else {
            throw Unavailable(description: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
                + "`make test` installs the Debian package postgresql")
        }
        return root.appendingPathComponent("\(newest)/bin")
    }

    /// A folder the `postgres` user owns and can reach: in the suite's temporary folder,
    /// or, when a parent of it is closed to other users, in /tmp.
    private static func folder() throws -> URL {
        for parent in [URL(fileURLWithPath: NSTemporaryDirectory()), URL(fileURLWithPath: "/tmp")] {
            let folder = parent.appendingPathComponent("chaos-test-pg-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard asRoot else { return folder }
            if let account = getpwnam("postgres") {
                _ = chown(folder.path, account.pointee.pw_uid, account.pointee.pw_gid)
            }
            if (try? run(nil, "/usr/bin/test", ["-w", folder.path])) != nil { return folder }
            try? FileManager.default.removeItem(at: folder)
        }
        throw Unavailable(description: "the postgres user can reach neither the temporary folder nor /tmp")
    }

    private static var asRoot: Bool { getuid() == 0 }

    /// Runs a program, as the `postgres` user when we are root, bounded; throws with its
    /// output when it fails. Spawned as Chaos spawns (``ChildProcess``): the server
    /// `pg_ctl` leaves running inherits nothing of this process but its standard
    /// descriptors, all three files here (Foundation's `Process` let the server keep a
    /// socket of its own, and `waitUntilExit` waited on it).
    @discardableResult
    private static func run(_ bin: URL?, _ program: String, _ arguments: [String]) throws -> String {
        let path = bin.map { $0.appendingPathComponent(program).path } ?? program
        let logs = try TemporaryFolder()
        let output = logs.url.appendingPathComponent("output")
        let child = try ChildProcess(executable: asRoot ? "/usr/sbin/runuser" : path,
                                     arguments: asRoot ? ["-u", "postgres", "--", path] + arguments : arguments,
                                     environment: ProcessInfo.processInfo.environment,
                                     stderrFile: logs.url.appendingPathComponent("stderr"), outputFile: output)
        child.closeInput()
        let (termination, killed) = child.waitForExit(deadline: .now + .seconds(90))
        let text = ["output", "stderr"].compactMap { try? String(contentsOf: logs.url.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        guard termination == .exited(0), !killed else {
            throw Unavailable(description: "\(program) \(arguments.joined(separator: " ")) ended \(termination)"
                + (killed ? " (killed after 90 s)" : "") + ": \(text)")
        }
        return text
    }

    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Unavailable(description: "no socket for a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Unavailable(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
