/// How the store is running after launch. Wire names match the scenario
/// expectation `fallback: MODE`.
public enum StoreMode: String, Sendable, CaseIterable, Codable {
    /// The store opened and passed its integrity check.
    case persistent
    /// The store was damaged; the newest good backup was put in its place.
    case restoredFromBackup = "restored-from-backup"
    /// The store was damaged; readable rows were recovered from it (on top of a backup, if any).
    case salvaged
    /// Nothing could be opened or recovered: the app runs on memory and says so.
    case inMemory = "in-memory"
    /// The store can be read but not written.
    case readOnly = "read-only"
    /// Data is kept locally while the remote cannot be reached (family sync).
    case localOnly = "local-only"
    /// The store failed and the settings feature runs from its fallback file.
    case circuitOpen = "circuit-open"
}

/// How serious what the user is shown is, for the `surfaced:` expectation.
public enum Severity: String, Sendable, Codable {
    case none, warning, error
}
