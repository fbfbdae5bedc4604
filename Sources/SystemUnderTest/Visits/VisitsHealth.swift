import Foundation
import GRDB

/// What can keep the visits log from opening: seed 003's table of causes, as this
/// app meets them on SQLite.
public enum DataProblem: String, Sendable, CaseIterable, Codable {
    /// A newer version of the app wrote the store (seed 003: a failed migration).
    case newerVersion = "newer-version"
    /// The device is out of space; the store opened read-only.
    case storageFull = "storage-full"
    /// The store is damaged and no backup could bring the visits back.
    case damaged
    /// The store may not be written (its permissions); it opened read-only.
    case permissionDenied = "permission-denied"
    /// No store could be opened at all.
    case unavailable

    /// The error domain of the diagnostics a user sends to support.
    public static let domain = "ChaosApp.VisitsStore"

    /// A stable number per cause, for diagnostics (never shown as the message).
    public var code: Int {
        switch self {
        case .newerVersion: 1
        case .storageFull: 2
        case .damaged: 3
        case .permissionDenied: 4
        case .unavailable: 5
        }
    }

    /// True when the saved visits cannot be shown at all, so the data-error screen
    /// replaces the list. A full or read-only store still shows them, with a notice.
    public var blocksList: Bool {
        switch self {
        case .newerVersion, .damaged, .unavailable: true
        case .storageFull, .permissionDenied: false
        }
    }
}

/// The visits log's launch health check (seed 003's `isHealthy` / `loadError`),
/// read from what the store's launch found.
///
/// The hardened store already tells a newer store, a full disk and a read-only file
/// apart; this check also looks at the store itself for a newer version's migrations,
/// which is how the legacy launch (which checks nothing) is caught.
public struct VisitsHealth: Sendable, Equatable {
    /// Nil when the visits log opened normally.
    public let problem: DataProblem?
    /// The technical reason, for logs and the support diagnostics' codes; never shown.
    public let loadError: String?
    public let storeMode: StoreMode

    public var isHealthy: Bool { problem == nil }

    public init(problem: DataProblem?, loadError: String?, storeMode: StoreMode) {
        self.problem = problem
        self.loadError = loadError
        self.storeMode = storeMode
    }

    /// Checks the launched store (nil when not even an in-memory store could be made).
    public static func check(store: AppStore?, launchError: String? = nil) -> VisitsHealth {
        guard let store else {
            return VisitsHealth(problem: .unavailable, loadError: launchError ?? "no store", storeMode: .inMemory)
        }
        let health = store.health
        func found(_ problem: DataProblem?) -> VisitsHealth {
            VisitsHealth(problem: problem, loadError: problem == nil ? nil : health.loadError, storeMode: health.mode)
        }
        if health.newerSchema { return found(.newerVersion) }
        switch health.mode {
        case .inMemory:
            // Damaged: the launch quarantined the files, or left a damaged file in place
            // (one it may not change).
            let storeFile = store.configuration.storeURL.path
            let damaged = !health.quarantinedFiles.isEmpty
                || (FileManager.default.fileExists(atPath: storeFile) && StoreIntegrity.damage(path: storeFile) != nil)
            return found(damaged ? .damaged : .unavailable)
        case .readOnly:
            return found(health.storageFull ? .storageFull : .permissionDenied)
        default:
            break
        }
        // The store opened: make sure no newer version wrote it. A read that fails here
        // is a runtime error, the list's own business, not a launch failure.
        let unknown = try? store.writer.read { db -> [String] in
            try AppSchema.migrator.appliedIdentifiers(db).subtracting(AppSchema.migrator.migrations).sorted()
        }
        if let unknown, !unknown.isEmpty {
            return VisitsHealth(problem: .newerVersion,
                                loadError: "the store was written by a newer version of the app (unknown migrations: \(unknown.joined(separator: ", ")))",
                                storeMode: health.mode)
        }
        return found(nil)
    }
}
