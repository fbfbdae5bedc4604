import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking TCP client on 127.0.0.1: what any socket user of the proxy sees
/// (refused, silence, delay, reset, slow bytes, a cut, a late close). Every wait is
/// `poll` with a bound, never a sleep.
final class LoopbackClient {
    struct ConnectFailure: Error, Equatable {
        var errno: Int32
    }

    enum Received: Equatable {
        case bytes([UInt8])
        /// The peer closed (recv returned 0).
        case closed
        /// ECONNRESET.
        case reset
        /// Nothing before the bound.
        case silent
        case failed(Int32)
    }

    private let fd: Int32
    private let clock = ContinuousClock()

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    static func connect(port: Int) throws(ConnectFailure) -> LoopbackClient {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectFailure(errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = errno
            close(fd)
            throw ConnectFailure(errno: failure)
        }
        return LoopbackClient(fd: fd)
    }

    /// Connects, or returns nil when the proxy reset the connection before `connect`
    /// returned: a peer that resets at accept can beat a busy client back to user space,
    /// and the kernel reports the reset to the connect (ECONNRESET), not to a later read.
    /// The connection was made and reset: to a test, that is a reset.
    static func connectUnlessReset(port: Int) throws -> LoopbackClient? {
        do {
            return try connect(port: port)
        } catch where error.errno == ECONNRESET {
            return nil
        }
    }

    /// A request the family registry answers (and then closes the connection).
    static let listRequest = "GET /families HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// Sends it all; returns the errno when the socket refused (a reset that arrives
    /// before the send is reported to the send, once, and not to the next receive).
    @discardableResult
    func send(_ text: String) -> Int32? {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return errno }
            sent += count
        }
        return nil
    }

    /// The next thing that happens on the socket, waiting at most `bound`.
    func receive(within bound: Duration) -> Received {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(bound.components.seconds * 1000 + bound.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&poller, 1, max(0, ms))
        if ready == 0 { return .silent }
        if ready < 0 { return .failed(errno) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(buffer[0..<count])) }
        if count == 0 { return .closed }
        return errno == ECONNRESET ? .reset : .failed(errno)
    }

    /// Reads until the peer closes or resets, or `bound` passes: the chunks as they
    /// came, how it ended, and when (since the call).
    func receiveAll(within bound: Duration) -> (chunks: [[UInt8]], end: Received, elapsed: Duration, firstByte: Duration?) {
        let start = clock.now
        var chunks: [[UInt8]] = []
        var firstByte: Duration?
        while true {
            let left = bound - (clock.now - start)
            guard left > .zero else { return (chunks, .silent, clock.now - start, firstByte) }
            let received = receive(within: left)
            guard case let .bytes(bytes) = received else { return (chunks, received, clock.now - start, firstByte) }
            if firstByte == nil { firstByte = clock.now - start }
            chunks.append(bytes)
        }
    }
}

/// Sockets of this process listening on `port` (read from /proc/self/net/tcp and
/// /proc/self/fd): what a stopped lab must leave none of.
func listeningSockets(onPort port: Int) -> Int {
    listeningDescriptors(onPort: port).count
}

/// Whether every socket of this process listening on `port` is close-on-exec: what a
/// process spawned meanwhile (an exit test) must not inherit.
func listeningSocketsAreCloseOnExec(onPort port: Int) -> Bool {
    listeningDescriptors(onPort: port).allSatisfy { fcntl($0, F_GETFD) & FD_CLOEXEC != 0 }
}

/// The descriptors of this process listening on `port`.
private func listeningDescriptors(onPort port: Int) -> [Int32] {
    guard let table = try? String(contentsOfFile: "/proc/self/net/tcp", encoding: .utf8) else { return [] }
    let hexPort = String(format: "%04X", port)
    var inodes: Set<String> = []
    for line in table.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        // sl local_address rem_address st ... inode (field 9)
        guard fields.count > 9, fields[1].hasSuffix(":" + hexPort), fields[3] == "0A" else { continue }
        inodes.insert(String(fields[9]))
    }
    guard !inodes.isEmpty else { return [] }
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.filter { fd in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)") else { return false }
        return inodes.contains { target == "socket:[\($0)]" }
    }.compactMap(Int32.init)
}

/// Threads of this process whose name starts with `prefix` (NIO names its event
/// loops `NIO-ELT-…`).
func threads(named prefix: String) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
        ((try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "").hasPrefix(prefix)
    }.count
}

/// Every test that starts a network lab runs in here, one at a time: the lab's
/// event-loop thread and ports are counted by ``NetworkProxyTests``.
@Suite("Network lab", .serialized) struct NetworkLabSuite {}
