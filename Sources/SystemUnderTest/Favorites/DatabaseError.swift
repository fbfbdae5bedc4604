import Foundation
import GRDB

/// A failed store operation, with what the user is told (seed 002, appendix C).
///
/// Every layer above the data source throws this type; the view model shows
/// ``userMessage`` and ``recoverySuggestion``. The technical cause is kept in
/// ``underlying`` for logs and diagnostics and never shown.
public enum DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    case fetchFailed(operation: String, underlying: String)
    case saveFailed(underlying: String)
    case deleteFailed(operation: String, underlying: String)
    case predicateFailed(underlying: String)
    case containerInitializationFailed(underlying: String)
    /// The store is read-only: the change was refused, nothing was lost.
    case readOnly(underlying: String)

    /// Wraps any error from the store layer, keeping the technical text.
    static func describe(_ error: any Error) -> String {
        if let grdb = error as? GRDB.DatabaseError {
            return "SQLite error \(grdb.extendedResultCode.rawValue): \(grdb.message ?? "")"
        }
        return String(describing: error)
    }

    /// True when the underlying failure was the store refusing writes.
    static func isReadOnly(_ error: any Error) -> Bool {
        guard let grdb = error as? GRDB.DatabaseError else { return false }
        return grdb.resultCode == .SQLITE_READONLY
    }

    public var userMessage: String {
        switch self {
        case let .fetchFailed(operation, _): "Unable to load \(operation). Please try again."
        case .saveFailed: "Failed to save changes. Please try again."
        case let .deleteFailed(operation, _): "Failed to remove \(operation). Please try again."
        case .predicateFailed: "Invalid search criteria. Please try again."
        case .containerInitializationFailed: "Database initialization failed. The app will restart."
        case .readOnly: "Your data can't be changed right now because storage is read-only."
        }
    }

    public var recoverySuggestion: String {
        switch self {
        case .fetchFailed: "Try refreshing or restarting the app."
        case .saveFailed: "Check if you have enough storage space, then try again."
        case .deleteFailed: "Try again in a moment."
        case .predicateFailed: "Modify your search criteria and try again."
        case .containerInitializationFailed: "Force close and reopen the app. Contact support if the problem persists."
        case .readOnly: "Free up or unlock your storage, then restart the app."
        }
    }

    /// Whether trying again may help.
    public var isRetryable: Bool {
        switch self {
        case .containerInitializationFailed, .readOnly: false
        default: true
        }
    }

    /// The technical cause, for diagnostics only.
    public var underlying: String {
        switch self {
        case let .fetchFailed(_, underlying), let .saveFailed(underlying), let .deleteFailed(_, underlying),
             let .predicateFailed(underlying), let .containerInitializationFailed(underlying), let .readOnly(underlying):
            underlying
        }
    }

    public var description: String { "\(userMessage) [\(underlying)]" }
}
