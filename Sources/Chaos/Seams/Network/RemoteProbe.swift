import ChaosTarget
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A probe a remote answers itself (``Remote/probes``): one HTTP/1.1 GET to the real
/// remote, never through the proxy, so it answers whatever faults are armed and after the
/// app trapped. The answer's body is a JSON value.
enum RemoteProbe {
    /// The value `path` answers at `host:port`, or nil (no answer by the deadline, not
    /// a 200, not JSON).
    static func get(host: String, port: Int, path: String, timeout: Duration = .seconds(5)) -> ScenarioValue? {
        let deadline = ContinuousClock.now + timeout
        guard let fd = TCPProbe.connect(host: host, port: port, until: deadline) else { return nil }
        defer { close(fd) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + sent }, request.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            sent += count
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while answer.count < 1 << 20 {
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, max(0, (deadline - .now).pollTimeout(cap: 1_000))) == 1 else {
                if ContinuousClock.now >= deadline { return nil } else { continue }
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            answer += chunk[..<count]
        }
        return value(ofAnswer: answer)
    }

    /// The JSON body of a `200` answer (not chunked), as a value.
    static func value(ofAnswer answer: [UInt8]) -> ScenarioValue? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: answer[..<end], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 200") || head.hasPrefix("HTTP/1.0 200") else { return nil }
        return try? JSONDecoder().decode(ScenarioValue.self, from: Data(answer[(end + separator.count)...]))
    }
}
