import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's side of its server: puts a note, asks which notes the server has. What a
/// small app writes with URLSession; the two variants differ only in how they use it.
public struct SyncClient: Sendable {
    public let server: URL
    private let session: URLSession

    /// `timeout`: how long one request may take (nil: URLSession's default, a minute).
    public init(server: URL, timeout: Duration?) {
        self.server = server
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
        var request = URLRequest(url: server.appendingPathComponent("notes").appendingPathComponent(id))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["text": text])
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SyncProblem.refused }
        return try JSONDecoder().decode(Stored.self, from: data)
    }

    /// The ids of the notes the server has.
    public func storedIDs() async throws -> Set<String> {
        let (data, response) = try await session.data(from: server.appendingPathComponent("notes"))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw SyncProblem.refused }
        struct Ids: Decodable { let ids: [String] }
        return Set(try JSONDecoder().decode(Ids.self, from: data).ids)
    }
}

/// The server did not take a note.
public enum SyncProblem: Error {
    case refused
}
