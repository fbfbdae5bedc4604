import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP request and its answer over a fresh TCP connection, on POSIX sockets, with
/// a bound on every wait.
///
/// Each wait (connect, send, the next bytes of the answer) is bounded by `idleTimeout`
/// and the whole exchange by `totalTimeout`: a remote that accepts and never answers
/// (a black hole) costs the user seconds, never a hang. The outcome is sorted by what
/// the app should do about it: nobody there (refused, timed out, no such host) is
/// `unreachable`; a connection that broke or was cut mid-way is `interrupted`.
///
/// Blocking by design, and run off the cooperative pool by ``HTTPFamilyRemote``.
struct HTTPExchange {
    var host: String
    var port: UInt16
    var request: Data
    var idleTimeout: Duration
    var totalTimeout: Duration

    /// Connects, sends, reads the answer, closes.
    func run() -> Result<HTTPResponseReader.Answer, FamilyRemoteError> {
        let clock = ContinuousClock()
        let deadline = clock.now + totalTimeout
        let socket: Int32
        switch connect(until: deadline) {
        case let .success(fd): socket = fd
        case let .failure(error): return .failure(error)
        }
        defer { close(socket) }
        if let error = send(request, on: socket, until: deadline) { return .failure(error) }
        return receive(on: socket, until: deadline)
    }

    // MARK: - Connect

    private func connect(until deadline: ContinuousClock.Instant) -> Result<Int32, FamilyRemoteError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            return .failure(.unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(found) }
        var lastProblem = FamilyRemoteError.unreachable("no address for \(host)")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate?.pointee {
            candidate = address.ai_next
            let fd = Glibc.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard fd >= 0 else { lastProblem = .unreachable("socket: \(errnoText())"); continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return .success(fd) }
            guard errno == EINPROGRESS else {
                lastProblem = Self.connectProblem(errno)
                close(fd)
                continue
            }
            switch wait(fd, for: Int16(POLLOUT), until: deadline) {
            case .ready:
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return .success(fd) }
                lastProblem = Self.connectProblem(error)
            case .timedOut:
                lastProblem = .unreachable("no connection within \(timeoutText)")
            case let .failed(problem):
                lastProblem = .unreachable(problem)
            }
            close(fd)
        }
        return .failure(lastProblem)
    }

    private static func connectProblem(_ code: Int32) -> FamilyRemoteError {
        let text = "connect: \(String(cString: strerror(code)))"
        // Refused, no route, no network: nobody there. A reset while connecting: the
        // link is there but broke.
        return code == ECONNRESET ? .interrupted(text) : .unreachable(text)
    }

    // MARK: - Send and receive

    private func send(_ data: Data, on fd: Int32, until deadline: ContinuousClock.Instant) -> FamilyRemoteError? {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { offset += sent; continue }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                return .interrupted("the request could not be sent: \(errnoText())")
            }
            switch wait(fd, for: Int16(POLLOUT), until: deadline) {
            case .ready: continue
            case .timedOut: return .unreachable("the request could not be sent within \(timeoutText)")
            case let .failed(problem): return .interrupted(problem)
            }
        }
        return nil
    }

    private func receive(on fd: Int32, until deadline: ContinuousClock.Instant) -> Result<HTTPResponseReader.Answer, FamilyRemoteError> {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            switch wait(fd, for: Int16(POLLIN), until: deadline) {
            case .ready: break
            case .timedOut:
                return .failure(received.isEmpty ? .unreachable("no answer within \(timeoutText)")
                                                 : .interrupted("the answer stopped coming (\(received.count) bytes) within \(timeoutText)"))
            case let .failed(problem): return .failure(.interrupted(problem))
            }
            let count = buffer.withUnsafeMutableBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return recv(fd, base, bytes.count, 0)
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return .failure(.interrupted("the connection broke: \(errnoText())"))
            }
            received.append(contentsOf: buffer.prefix(count))
            switch HTTPResponseReader.read(received, ended: count == 0) {
            case .needMore: continue
            case let .complete(answer): return .success(answer)
            case let .malformed(problem): return .failure(.interrupted(problem))
            }
        }
    }

    private enum Wait { case ready, timedOut, failed(String) }

    /// Waits until `fd` is ready for `events`, at most `idleTimeout` and not past `deadline`.
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Wait {
        let clock = ContinuousClock()
        let idleDeadline = min(deadline, clock.now + idleTimeout)
        while true {
            let left = idleDeadline - clock.now
            guard left > .zero else { return .timedOut }
            let milliseconds = left.pollTimeout()
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 {
                // A hang-up or an error is read (or written) to learn what it was.
                return .ready
            }
            if ready < 0 && errno != EINTR { return .failed("poll: \(errnoText())") }
        }
    }

    private var timeoutText: String {
        String(format: "%.1f s", idleTimeout.inSeconds)
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
