import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's side of its server: puts a note, asks which notes the server has. What a
/// small app writes with URLSession (the fragile variant); the fixed one bounds every
/// request and reads its answers with NIO (``NIOExchange``): URLSession on Linux traps
/// on an answer cut inside its headers.
public struct SyncClient: Sendable {
    public let server: URL
    private let session: URLSession
    /// The bound of the fixed client's requests; nil: URLSession with its defaults.
    private let timeout: Duration?

    /// `timeout`: how long one request may take (nil: URLSession's default, a minute).
    public init(server: URL, timeout: Duration?) {
        self.server = server
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        if let timeout {
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            configuration.timeoutIntervalForRequest = seconds
            configuration.timeoutIntervalForResource = seconds * 2
        }
        session = URLSession(configuration: configuration)
    }

    /// What a put came to, as the server said it.
    public struct Stored: Decodable, Sendable {
        public let id: String
        public let stored: Bool
    }

    /// Puts `text` under `id` (the same id again stores it once). Throws when the server
    /// did not say it stored the note.
    public func put(id: String, text: String) async throws -> Stored {
        let url = server.appendingPathComponent("notes").appendingPathComponent(id)
        let body = try JSONEncoder().encode(["text": text])
        if let timeout {
            let answer = try await NIOExchange.send(.PUT, to: url, body: body, timeout: timeout)
            guard answer.status == 200 else { throw SyncProblem.refused }
            return try JSONDecoder().decode(Stored.self, from: answer.body)
        }
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SyncProblem.refused }
        return try JSONDecoder().decode(Stored.self, from: data)
    }

    /// The ids of the notes the server has.
    public func storedIDs() async throws -> Set<String> {
        let url = server.appendingPathComponent("notes")
        let data: Data
        if let timeout {
            let answer = try await NIOExchange.send(.GET, to: url, body: nil, timeout: timeout)
            guard answer.status == 200 else { throw SyncProblem.refused }
            data = answer.body
        } else {
            let (body, response) = try await session.data(from: url)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SyncProblem.refused }
            data = body
        }
        struct Ids: Decodable { let ids: [String] }
        return Set(try JSONDecoder().decode(Ids.self, from: data).ids)
    }
}

/// The server did not take a note.
public enum SyncProblem: Error {
    case refused
}
