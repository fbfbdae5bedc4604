/// What the launch found and did, as the app's health check reports it
/// (seed 003's `isHealthy` / `loadError`, plus the mode of seed 000's recovery).
public struct StoreHealth: Sendable, Equatable {
    public var mode: StoreMode
    /// What the user is told, free of technical terms; nil when there is nothing to say.
    public var userMessage: String?
    public var severity: Severity
    /// The technical reason the store did not open normally, for diagnostics only.
    public var loadError: String?
    /// Files moved into the quarantine folder, never deleted.
    public var quarantinedFiles: [String]
    /// The backup file the store was restored from, if any.
    public var restoredBackup: String?
    /// Rows recovered from the damaged store that the backup did not hold.
    public var salvagedRows: Int
    /// How long the launch took, recovery included.
    public var launchDuration: Duration
    /// The store is read-only because the device is out of space (not because of its
    /// permissions): a refused change then asks the user to free up space.
    public var storageFull = false
    /// The store was written by a newer version of the app (it lists migrations this
    /// version does not know). It is left exactly as it is and opened read-only; the
    /// app shows its data-error screen (seed 003).
    public var newerSchema = false
    /// The store is the file the last session closed sound, untouched since
    /// (``CleanClose``): the launch skipped the full check, and the backup that close
    /// took already holds this state.
    public var closedSoundLastTime = false

    /// A store that opened sound.
    static func persistent(closedSoundLastTime: Bool) -> StoreHealth {
        var health = StoreHealth(mode: .persistent)
        health.closedSoundLastTime = closedSoundLastTime
        return health
    }

    /// True when the store opened without needing any recovery.
    public var isHealthy: Bool { loadError == nil }

    public init(
        mode: StoreMode,
        userMessage: String? = nil,
        severity: Severity = .none,
        loadError: String? = nil,
        quarantinedFiles: [String] = [],
        restoredBackup: String? = nil,
        salvagedRows: Int = 0,
        launchDuration: Duration = .zero
    ) {
        self.mode = mode
        self.userMessage = userMessage
        self.severity = severity
        self.loadError = loadError
        self.quarantinedFiles = quarantinedFiles
        self.restoredBackup = restoredBackup
        self.salvagedRows = salvagedRows
        self.launchDuration = launchDuration
    }
}

/// The words the user sees after a launch that needed help. No codes, no type names.
enum LaunchMessages {
    static let restored = "We found a problem with your saved data and restored it from your most recent backup. Changes made after that backup may be missing."
    static let salvaged = "We found a problem with your saved data and recovered everything we could read. A few recent changes may be missing."
    static let inMemory = "Your saved data could not be opened, so changes you make now will not be kept after the app closes. Your original data has been set aside safely; please contact support."
    /// In memory with the store left where it was: nothing was set aside, so nothing says so.
    static let inMemoryStoreUntouched = "Your saved data could not be opened right now, so changes you make now will not be kept after the app closes. Your saved data has not been changed; please try again later or contact support."
    static let readOnly = "Your data can be viewed but not changed right now, because the storage is read-only."
    static let storageFull = "Your device is out of storage space. You can see your data, but changes can't be saved until you free up some space."
    static let dataLost = "Your saved data could not be found on this device, and no backup holds it. The app has started again with nothing saved. Please contact support."
    static let newerSchema = "Your data was saved by a newer version of this app, so this version can't open it. Nothing has been changed. Please update the app."
}
