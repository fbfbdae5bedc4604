/// Why a family could not be created or shared, with what the user is told (seed 001's
/// `FamilyCreationError`): a message in plain words, a suggestion, and whether trying
/// again may help. The technical cause is kept for diagnostics and never shown.
public enum FamilyCreationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty, too long or has control characters.
    case validationFailed
    /// No free code was found in the attempts allowed, or the store could not be asked.
    case codeGenerationFailed(underlying: String)
    /// The family could not be saved on this device.
    case localCreationFailed(underlying: String)
    /// The remote answered, but would not take the family.
    case syncFailed(underlying: String)
    /// The remote could not be reached; the family waits on this device.
    case networkUnavailable(underlying: String)
    /// The retry button was pressed too many times in a row.
    case maxRetriesExceeded
    /// The store cannot take a write now (seed 001's `validateDatabaseState()` found it
    /// read-only, or without its tables): nothing was tried.
    case databaseUnavailable(underlying: String)
    /// Too many families created in a short time (seed 001's rate limiting).
    case rateLimited
    /// Joining: no family uses the code, on the remote or on this device.
    case familyNotFound
    /// Joining: the remote could not be asked, and no family on this device has the code.
    case cannotCheckCode(underlying: String)

    public var userMessage: String {
        switch self {
        case .validationFailed:
            "Please enter a family name of 1 to \(FamilyName.maximumLength) characters."
        case .codeGenerationFailed:
            "We couldn't make a code for your family. Please try again."
        case .localCreationFailed:
            "Your family couldn't be saved on this device. Please try again."
        case .syncFailed:
            "Your family is saved on this device, but it couldn't be shared yet. Please try again later."
        case .networkUnavailable:
            "You're offline. Your family is saved on this device and will be shared when you're back online."
        case .maxRetriesExceeded:
            "This still isn't working. Please try again later, and contact support if it keeps happening."
        case .databaseUnavailable:
            "Your data can't be changed right now, so no family can be created. Restart the app, and contact support if this keeps happening."
        case .rateLimited:
            "You've created several families in a short time. Please wait a minute, then try again."
        case .familyNotFound:
            "No family uses this code. Check the code with the person who shared it."
        case .cannotCheckCode:
            "This code can't be checked while you're offline. Please try again when you're back online."
        }
    }

    public var recoverySuggestion: String {
        switch self {
        case .validationFailed: "Check the name and try again."
        case .codeGenerationFailed, .localCreationFailed: "Try again in a moment. If your device is full, free up some space first."
        case .syncFailed, .networkUnavailable: "Check your connection; sharing resumes on its own."
        case .maxRetriesExceeded, .databaseUnavailable: "Restart the app and try again."
        case .rateLimited: "Wait a minute, then try again."
        case .familyNotFound: "Check the code and try again."
        case .cannotCheckCode: "Check your connection, then try again."
        }
    }

    /// Whether the retry button is offered.
    public var isRetryable: Bool {
        switch self {
        case .validationFailed, .maxRetriesExceeded, .databaseUnavailable, .rateLimited, .familyNotFound: false
        default: true
        }
    }

    /// The technical cause, for diagnostics only.
    public var underlying: String {
        switch self {
        case .validationFailed: "invalid name"
        case let .codeGenerationFailed(underlying), let .localCreationFailed(underlying),
             let .syncFailed(underlying), let .networkUnavailable(underlying), let .databaseUnavailable(underlying),
             let .cannotCheckCode(underlying): underlying
        case .maxRetriesExceeded: "retry limit reached"
        case .rateLimited: "creation rate limit reached"
        case .familyNotFound: "no family with this code"
        }
    }

    public var description: String { "\(userMessage) [\(underlying)]" }

    /// Kebab-case, for probes and logs: `max-retries-exceeded`.
    public var kind: String {
        switch self {
        case .validationFailed: "validation-failed"
        case .codeGenerationFailed: "code-generation-failed"
        case .localCreationFailed: "local-creation-failed"
        case .syncFailed: "sync-failed"
        case .networkUnavailable: "network-unavailable"
        case .maxRetriesExceeded: "max-retries-exceeded"
        case .databaseUnavailable: "database-unavailable"
        case .rateLimited: "rate-limited"
        case .familyNotFound: "family-not-found"
        case .cannotCheckCode: "cannot-check-code"
        }
    }
}
