import Foundation

/// The family registry over HTTP and JSON: `GET /families/{code}` (200/404) and
/// `POST /families` (201/409).
///
/// Every wait has a timeout (2 s by default) and the whole exchange a bound of twice
/// that: a remote that accepts and never answers (a black hole) costs the user
/// seconds, never a hang. Each request has its own connection (`Connection: close`):
/// no connection is reused after a fault broke it.
///
/// Why not URLSession: on Linux, FoundationNetworking traps the process when an answer
/// is cut inside its headers (swift-corelibs-foundation#5285) — a hardened app cannot
/// survive a `slicer` or `limit-data` fault on it — and loading it (libcurl and a TLS
/// stack) costs about 16 ms at every process start. The registry is plain HTTP, so
/// ``HTTPExchange`` speaks it on a socket, and ``HTTPResponseReader`` reads any bytes
/// without trapping.
public struct HTTPFamilyRemote: FamilyRemote {
    public let baseURL: URL
    public let timeout: Duration

    public init(baseURL: URL, timeout: Duration = .seconds(2)) {
        self.baseURL = baseURL
        self.timeout = timeout
    }

    public func lookup(_ code: String) async throws(FamilyRemoteError) -> RemoteFamily? {
        let answer = try await send(method: "GET", path: "families/\(code)", body: nil)
        switch answer.status {
        case 200: return try decode(answer.body)
        case 404: return nil
        default: throw Self.statusError(answer.status)
        }
    }

    public func register(_ family: RemoteFamily) async throws(FamilyRemoteError) -> RemoteRegistration {
        guard let body = try? JSONEncoder().encode(family) else { throw .rejected("the family could not be encoded") }
        let answer = try await send(method: "POST", path: "families", body: body)
        switch answer.status {
        case 201: return .created
        case 409: return .codeTaken
        default: throw Self.statusError(answer.status)
        }
    }

    /// Runs the exchange on a thread of its own: its waits block, and must hold up
    /// neither the cooperative pool the rest of the app runs on nor Dispatch's global
    /// queues (on Linux both are as wide as the machine has cores).
    private func send(method: String, path: String, body: Data?) async throws(FamilyRemoteError) -> HTTPResponseReader.Answer {
        let exchange = try exchange(method: method, path: path, body: body)
        let result = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: exchange.run()) }
            thread.name = "family-remote-http"
            thread.start()
        }
        return try result.get()
    }

    private func exchange(method: String, path: String, body: Data?) throws(FamilyRemoteError) -> HTTPExchange {
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
              components.scheme == "http", let host = components.host, !host.isEmpty else {
            throw .rejected("the remote must be an http:// address, not \(baseURL.absoluteString)")
        }
        let port = UInt16(clamping: max(0, components.port ?? 80))
        let base = components.percentEncodedPath.hasSuffix("/") ? components.percentEncodedPath : components.percentEncodedPath + "/"
        let hostHeader = components.port.map { "\(host):\($0)" } ?? host
        var head = "\(method) \(base)\(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\nAccept: application/json\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        var request = Data((head + "\r\n").utf8)
        if let body { request.append(body) }
        return HTTPExchange(host: host, port: port, request: request, idleTimeout: timeout, totalTimeout: timeout * 2)
    }

    private func decode(_ body: Data) throws(FamilyRemoteError) -> RemoteFamily {
        do {
            return try JSONDecoder().decode(RemoteFamily.self, from: body)
        } catch {
            throw .interrupted("unreadable answer: \(error)")
        }
    }

    static func statusError(_ status: Int) -> FamilyRemoteError {
        status >= 500 ? .interrupted("HTTP \(status)") : .rejected("HTTP \(status)")
    }
}
