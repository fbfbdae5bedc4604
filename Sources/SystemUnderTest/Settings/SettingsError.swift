/// A settings change or read that could not be served at all: neither the store nor
/// the fallback file took it. What the user is told is plain words; the technical
/// cause stays in ``underlying``.
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidValue(key: String)
    case unavailable(underlying: String)

    public var userMessage: String {
        switch self {
        case .invalidValue: "That setting can't be saved. Please choose another value."
        case .unavailable: "Your settings can't be saved right now. Please try again in a moment."
        }
    }

    public var recoverySuggestion: String {
        switch self {
        case .invalidValue: "Pick one of the offered values."
        case .unavailable: "Check that your device has free storage space, then try again."
        }
    }

    public var underlying: String {
        switch self {
        case let .invalidValue(key): "empty or too long value for \(key)"
        case let .unavailable(underlying): underlying
        }
    }

    public var description: String { "\(userMessage) [\(underlying)]" }
}

/// Where an accepted change went.
public enum SettingsWriteOutcome: String, Sendable {
    /// Into the store.
    case stored
    /// Into the fallback file while the breaker is open; merged into the store when it closes.
    case keptInFallback = "kept-in-fallback"
}
