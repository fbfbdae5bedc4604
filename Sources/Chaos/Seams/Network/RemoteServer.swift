import ChaosTarget
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A remote the target declares, running for one case: a server Chaos started on a free
/// port of 127.0.0.1 (and ends with everything it started), or an address that already
/// listened. Either way it accepted a connection before the case went on.
/// Unchecked Sendable: every field is a constant, and ``ChildProcess`` is safe to share.
final class RemoteServer: @unchecked Sendable {
    let remote: Remote
    let host: String
    let port: Int
    private let process: ChildProcess?
    private let log: URL?
    /// The server's folder when it is not inside a case's scratch (``RemotePool``):
    /// removed when the server is stopped.
    private let ownFolder: URL?

    private init(remote: Remote, host: String, port: Int, process: ChildProcess?, log: URL?, ownFolder: URL? = nil) {
        self.remote = remote
        self.host = host
        self.port = port
        self.process = process
        self.log = log
        self.ownFolder = ownFolder
    }

    /// Starts or reaches `remote`; its folder and logs go in `scratch`. `mark` goes in a
    /// started server's environment, so what it leaves is found if the controller dies.
    static func start(_ remote: Remote, scratch: URL, mark: String, deadline: ContinuousClock.Instant) throws(SeamUnavailable) -> RemoteServer {
        let folder = scratch.appendingPathComponent("remote-\(remote.name)", isDirectory: true)
        return try start(remote, folder: folder, ownsFolder: false, mark: mark, deadline: deadline)
    }

    /// Starts or reaches `remote` with `folder` its own: removed when it stops (a pooled
    /// server's, ``RemotePool``); it stops waiting for the server to listen once `giveUp`
    /// says so (the pool is shut down).
    static func start(_ remote: Remote, folder: URL, mark: String, deadline: ContinuousClock.Instant,
                      giveUp: @escaping @Sendable () -> Bool) throws(SeamUnavailable) -> RemoteServer {
        try start(remote, folder: folder, ownsFolder: true, mark: mark, deadline: deadline, giveUp: giveUp)
    }

    /// Whether its folder is its own (a pooled server's), not inside a case's scratch.
    var isPooled: Bool { ownFolder != nil }

    private static func start(_ remote: Remote, folder: URL, ownsFolder: Bool, mark: String, deadline: ContinuousClock.Instant,
                              giveUp: @escaping @Sendable () -> Bool = { false }) throws(SeamUnavailable) -> RemoteServer {
        switch remote.source {
        case let .address(host, port):
            let bound = min(deadline, .now + .seconds(5))
            guard TCPProbe.accepts(host: host, port: port, until: bound) else {
                throw .harness("the remote '\(remote.name)' at \(host):\(port) does not accept connections: start it before the run "
                    + "(it is declared as an address that already listens)")
            }
            return RemoteServer(remote: remote, host: host, port: port, process: nil, log: nil)
        case let .command(executable, arguments, environment):
            return try launch(remote, executable: executable, arguments: arguments, environment: environment,
                              folder: folder, ownsFolder: ownsFolder, mark: mark, deadline: deadline, giveUp: giveUp)
        }
    }

    private static func launch(_ remote: Remote, executable: String, arguments: [String], environment: [String: String],
                               folder: URL, ownsFolder: Bool, mark: String, deadline: ContinuousClock.Instant,
                               giveUp: () -> Bool) throws(SeamUnavailable) -> RemoteServer {
        guard let port = TCPProbe.freePort() else { throw .harness("no free port on 127.0.0.1 for the remote '\(remote.name)'") }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ownFolder = ownsFolder ? folder : nil
        let fill = { (text: String) in
            text.replacingOccurrences(of: Remote.portPlaceholder, with: String(port))
                .replacingOccurrences(of: Remote.dataPlaceholder, with: folder.path)
        }
        var env = ProcessInfo.processInfo.environment.merging(environment.mapValues(fill)) { _, new in new }
        env[ProcessLeftovers.markVariable] = mark
        let log = folder.appendingPathComponent("stderr")
        let process: ChildProcess
        do {
            process = try ChildProcess(executable: executable, arguments: arguments.map(fill), environment: env, stderrFile: log,
                                       outputFile: folder.appendingPathComponent("stdout"))
        } catch {
            if let ownFolder { _ = ScratchFolder.remove(ownFolder) }
            throw .harness("the remote '\(remote.name)' could not be started (\(executable)): \(error)")
        }
        // Its stdin stays open while the case runs: a server that reads it (the reference
        // app's registry) ends when the controller does, however it ends.
        let server = RemoteServer(remote: remote, host: NetworkFaultProxy.host, port: port, process: process, log: log, ownFolder: ownFolder)
        // Until it accepts a connection, it dies, or the case's deadline (a server gets 30 s at most).
        // Asked again after 1 ms, then twice as long each time up to 20: a server that
        // listens in a few milliseconds (the reference app's registry) is not waited on
        // for a whole 20 (every case of a sweep or a hunt that runs a remote pays it).
        let bound = min(deadline, .now + .seconds(30))
        var pause = Duration.milliseconds(1)
        while !TCPProbe.accepts(host: NetworkFaultProxy.host, port: port, until: min(bound, .now + .milliseconds(100))) {
            if let ended = process.pollExit() {
                let tail = server.logTail
                server.stop()
                throw .harness("the remote '\(remote.name)' ended before it listened (\(ended)): \(tail)")
            }
            guard ContinuousClock.now < bound, !giveUp() else {
                let tail = server.logTail
                server.stop()
                throw .harness("the remote '\(remote.name)' did not listen on port \(port) in time: \(tail)")
            }
            _ = SpawnedChildren.awaitEnd(of: process.pid, deadline: min(bound, .now + pause))
            pause = min(pause * 2, .milliseconds(20))
        }
        return server
    }

    /// The end of what a started server wrote to stderr.
    var logTail: String {
        log.map { OutputTail.read($0, bytes: 1_000) }.map { $0.isEmpty ? "(it wrote nothing to stderr)" : $0 } ?? ""
    }

    /// Whether a started server has ended by itself (an address never has).
    var hasEnded: Bool { process?.pollExit() != nil }

    /// Ends a started server with its process group (and removes its own folder); an
    /// address is left as it is.
    func stop() {
        guard let process else { return }
        process.killAndReap()
        _ = process.endGroup()
        if let ownFolder { _ = ScratchFolder.remove(ownFolder) }
    }
}

/// TCP on loopback, as a remote is started and reached.
enum TCPProbe {
    /// A port no one listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Whether `host:port` accepts a TCP connection before `deadline`.
    static func accepts(host: String, port: Int, until deadline: ContinuousClock.Instant) -> Bool {
        guard let fd = connect(host: host, port: port, until: deadline) else { return false }
        close(fd)
        return true
    }

    /// A connected socket to `host:port` (an IPv4 address or `localhost`), or nil by `deadline`.
    static func connect(host: String, port: Int, until deadline: ContinuousClock.Instant) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let started = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if started != 0, errno != EINPROGRESS { close(fd); return nil }
        if started != 0 {
            var watched = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&watched, 1, max(0, (deadline - .now).pollTimeout(cap: 5_000)))
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard ready == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else { close(fd); return nil }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }
}
