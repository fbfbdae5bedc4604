import Foundation

/// Where the app keeps its data and how hard it tries to keep it.
public struct StoreConfiguration: Sendable, Equatable {
    /// The app's data folder: the store, its backups and its quarantine live here.
    public var directory: URL
    /// The store's file name inside `directory`.
    public var fileName: String
    /// SQLite's `synchronous` setting. `full` is what makes an acknowledged write
    /// survive a power cut in WAL mode; the others are offered so a user can see
    /// what a weaker setting costs them.
    public var durability: Durability
    /// A backup is taken after this many acknowledged writes (and at launch and stop).
    public var backupEveryWrites: Int
    /// How many numbered backups are kept; older ones are removed.
    public var backupsKept: Int

    public init(
        directory: URL,
        fileName: String = "app.sqlite",
        durability: Durability = .full,
        backupEveryWrites: Int = 100,
        backupsKept: Int = 3
    ) {
        self.directory = directory
        self.fileName = fileName
        self.durability = durability
        self.backupEveryWrites = max(1, backupEveryWrites)
        self.backupsKept = max(1, backupsKept)
    }

    public var storeURL: URL { directory.appendingPathComponent(fileName) }
    public var walURL: URL { directory.appendingPathComponent(fileName + "-wal") }
    public var shmURL: URL { directory.appendingPathComponent(fileName + "-shm") }
    public var backupDirectory: URL { directory.appendingPathComponent("backups") }
    public var quarantineDirectory: URL { directory.appendingPathComponent("quarantine") }

    /// The logical file names a scenario may aim at, and where each one is.
    public var logicalFiles: [String: URL] {
        ["store": storeURL, "wal": walURL, "shm": shmURL]
    }
}

/// SQLite's `PRAGMA synchronous`, as a target option (`synchronous: full|normal|off`).
public enum Durability: String, Sendable, CaseIterable {
    case full, normal, off
}
