import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The family registry over HTTP and JSON, with Foundation's `URLSession`:
/// `GET /families/{code}` (200/404) and `POST /families` (201/409).
///
/// Every request has a timeout (2 s by default) and the whole exchange a bound of
/// twice that: a remote that accepts and never answers (a black hole) costs the user
/// seconds, never a hang. Each request asks for its own connection
/// (`Connection: close`): no connection is reused after a fault broke it.
public struct HTTPFamilyRemote: FamilyRemote {
    public let baseURL: URL
    public let timeout: Duration
    private let session: URLSession

    public init(baseURL: URL, timeout: Duration = .seconds(2)) {
        self.baseURL = baseURL
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        // Whole seconds: FoundationNetworking on Linux times a sub-second request out at once.
        let seconds = max(1, (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18).rounded(.up))
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldUsePipelining = false
        session = URLSession(configuration: configuration)
    }

    public func lookup(_ code: String) async throws(FamilyRemoteError) -> RemoteFamily? {
        let (status, body) = try await send(request(path: "families/\(code)", method: "GET"))
        switch status {
        case 200: return try decode(body)
        case 404: return nil
        default: throw Self.statusError(status)
        }
    }

    public func register(_ family: RemoteFamily) async throws(FamilyRemoteError) -> RemoteRegistration {
        var request = request(path: "families", method: "POST")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(family)
        let (status, _) = try await send(request)
        switch status {
        case 201: return .created
        case 409: return .codeTaken
        default: throw Self.statusError(status)
        }
    }

    private func request(path: String, method: String) -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        request.setValue("close", forHTTPHeaderField: "Connection")
        return request
    }

    private func send(_ request: URLRequest) async throws(FamilyRemoteError) -> (Int, Data) {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw FamilyRemoteError.interrupted("not an HTTP answer") }
            return (http.statusCode, data)
        } catch let error as FamilyRemoteError {
            throw error
        } catch {
            throw Self.classify(error)
        }
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

    /// A transport failure, sorted: nobody there (refused, timed out) → unreachable;
    /// a connection that broke mid-way → interrupted.
    static func classify(_ error: any Error) -> FamilyRemoteError {
        guard let urlError = error as? URLError else { return .interrupted(String(describing: error)) }
        let detail = "URLError \(urlError.code.rawValue): \(urlError.localizedDescription)"
        switch urlError.code {
        case .cannotConnectToHost, .timedOut, .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed,
             .internationalRoamingOff, .dataNotAllowed, .secureConnectionFailed:
            return .unreachable(detail)
        default:
            return .interrupted(detail)
        }
    }
}
