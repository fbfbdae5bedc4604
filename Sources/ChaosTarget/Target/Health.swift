import Foundation

/// The app's storage health, as its launch found it: the mode it runs in, and what it
/// told the user. `fallback: MODE` checks the mode.
public struct Health: Sendable, Equatable {
    /// A storage mode: one of the common ones, or one the target defines
    /// (`extension Health.Mode { static let setAside: Health.Mode = "set-aside" }`).
    public struct Mode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }

        /// The store works as it should.
        public static let persistent: Mode = "persistent"
        /// The store was damaged or lost and a backup was put back.
        public static let restoredFromBackup: Mode = "restored-from-backup"
        /// The store was damaged; what could be read was saved into a new one.
        public static let salvaged: Mode = "salvaged"
        /// Nothing could be opened: changes live in memory and are lost at exit.
        public static let inMemory: Mode = "in-memory"
        /// The store can be read, not written.
        public static let readOnly: Mode = "read-only"
        /// Kept on the device only, waiting for a remote.
        public static let localOnly: Mode = "local-only"
        /// The store failed; a fallback serves while it recovers.
        public static let circuitOpen: Mode = "circuit-open"

        /// Not one of the standard modes a run expects: the app could not keep its damaged
        /// data (not even set aside) and told the user it is gone. A target that may say so
        /// declares it among its modes; `damaged-kept` then holds no bytes against it.
        public static let discarded: Mode = "discarded"
        public static let standard: [Mode] = [.persistent, .restoredFromBackup, .salvaged, .inMemory, .readOnly, .localOnly, .circuitOpen]
    }

    public var mode: Mode
    /// What the launch told the user, and how loudly.
    public var severity: Severity
    public var message: String?
    /// Anything else worth a probe (`health.restoredBackup`...), shown in reports.
    public var facts: [String: ScenarioValue]

    public init(mode: Mode = .persistent, severity: Severity = .none, message: String? = nil,
                facts: [String: ScenarioValue] = [:]) {
        self.mode = mode
        self.severity = severity
        self.message = message
        self.facts = facts
    }

    /// Nothing could be opened: the app runs on nothing it keeps, and says so (`in-memory`,
    /// an error).
    public static func unavailable(_ message: String?) -> Health {
        Health(mode: .inMemory, severity: .error, message: message)
    }

    /// The store works (`persistent`) when `message` is nil; else the app runs in `mode`
    /// and warned the user with `message` (restored from a backup, set aside a file).
    public static func warning(_ message: String?, mode: Mode) -> Health {
        message.map { Health(mode: mode, severity: .warning, message: $0) } ?? Health()
    }

    /// The wire form: the facts, then `mode`, `severity` and `message`.
    package var value: ScenarioValue {
        var map = facts
        map["mode"] = .string(mode.rawValue)
        map["severity"] = .string(severity.rawValue)
        map["message"] = message.map(ScenarioValue.string) ?? .null
        return .map(map)
    }
}

/// How loudly the app tells the user something.
public enum Severity: String, Sendable, Codable, CaseIterable {
    case none, warning, error
}

/// What the app shows the user right now. `surfaced: warning` checks it; a message
/// must be in plain words (no SQLite codes, no type names).
public struct Surfaced: Sendable, Equatable {
    public var severity: Severity
    public var message: String?

    public init(_ severity: Severity, _ message: String? = nil) {
        self.severity = severity
        self.message = message
    }

    /// Nothing on screen.
    public static let nothing = Surfaced(.none)
    public static func warning(_ message: String) -> Surfaced { Surfaced(.warning, message) }
    public static func error(_ message: String) -> Surfaced { Surfaced(.error, message) }

    package var value: ScenarioValue {
        .map(["severity": .string(severity.rawValue), "message": message.map(ScenarioValue.string) ?? .null])
    }
}

/// The contract the storage catalog (`chaos check`) runs on: any target that declares
/// one gets every storage fault of the catalog without writing a scenario.
public struct Workload: Sendable, Codable, Equatable {
    /// An action that saves one record and acknowledges its key (`ActionCall.acknowledge`).
    public var write: String
    /// An action that reads the user's data back (returns `.read(...)`).
    public var read: String
    /// The mode the app reports after its store was damaged, if it promises one
    /// (`restored-from-backup`): the catalog then checks it too.
    public var afterDamage: String?
    /// Stores older versions of the app left (fixtures): `chaos check` opens each as this
    /// version would find it, plainly and on a full disk, and holds the app to keeping
    /// every record it holds. Nil or empty: no migration cases.
    public var olderStores: [OlderStore]?

    /// What a scenario writes for them: `do: workload.write`, `do: workload.read`.
    package static let actionPrefix = "workload."

    public init(write: String, read: String, afterDamage: Health.Mode? = nil, olderStores: [OlderStore] = []) {
        self.write = write
        self.read = read
        self.afterDamage = afterDamage?.rawValue
        self.olderStores = olderStores.isEmpty ? nil : olderStores
    }
}

/// A store an older version of the app left, kept as a file beside the target's sources:
/// `chaos check` puts it in place of the store and launches this version on it
/// (`check-migrate-NAME`, and `check-migrate-NAME-disk-full` with the disk full at that
/// launch), and every record it holds must still be there afterwards.
///
/// ```swift
/// OlderStore("v1", path: "../fixtures/journal-v1.sqlite", besides: #filePath, records: 12)
/// ```
public struct OlderStore: Sendable, Codable, Equatable {
    /// Names its cases: kebab-case, `v1`.
    public var name: String
    /// The file, absolute.
    public var path: String
    /// How many records of the user it holds (the target's `snapshot()` counts them).
    public var records: Int

    public init(_ name: String, path: String, records: Int) {
        self.name = name
        self.path = path
        self.records = records
    }

    /// A file named relative to a source file of the target, kept beside its sources:
    /// `OlderStore("v1", path: "../fixtures/journal-v1.sqlite", besides: #filePath, records: 12)`.
    public init(_ name: String, path: String, besides sourceFile: String, records: Int) {
        let url = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent(path)
        self.init(name, path: url.standardizedFileURL.path, records: records)
    }
}
