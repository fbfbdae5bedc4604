/// The remote family registry as the app sees it (CloudKit in the seed): look a code
/// up, register a family. Implemented over HTTP by ``HTTPFamilyRemote``; tests give
/// their own.
public protocol FamilyRemote: Sendable {
    /// The family holding `code`, or nil when the code is free.
    func lookup(_ code: String) async throws(FamilyRemoteError) -> RemoteFamily?
    /// Registers `family`, unless its code is taken.
    func register(_ family: RemoteFamily) async throws(FamilyRemoteError) -> RemoteRegistration
}

/// A family as the remote stores it.
public struct RemoteFamily: Codable, Sendable, Equatable {
    public var code: String
    public var name: String
    public var clientID: String

    public init(code: String, name: String, clientID: String) {
        self.code = code
        self.name = name
        self.clientID = clientID
    }

    public init(_ family: Family) {
        self.init(code: family.code, name: family.name, clientID: family.clientID)
    }
}

public enum RemoteRegistration: Sendable, Equatable {
    case created
    /// The code is taken (HTTP 409): by this very creation, if an earlier answer was
    /// lost on the way back, or by someone else.
    case codeTaken
}

/// Why a remote call failed, sorted by what the app should do about it.
public enum FamilyRemoteError: Error, Sendable, Equatable {
    /// No remote is configured: the feature is local-only by design.
    case notConfigured
    /// Refused, timed out, no route: the remote is not there. Stop and queue.
    case unreachable(String)
    /// The connection broke mid-way (reset, cut short), or the remote had a hiccup
    /// (5xx): the request may or may not have been done. Retry, with backoff.
    case interrupted(String)
    /// The remote refused the request itself (4xx other than 409): retrying the same
    /// request will not help.
    case rejected(String)

    /// True when retrying the same request soon may succeed.
    public var isTransient: Bool {
        if case .interrupted = self { return true }
        return false
    }
}
