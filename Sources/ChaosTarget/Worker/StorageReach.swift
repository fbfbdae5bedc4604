/// Which seam saw the app's files while storage faults were armed: SQLite files the
/// fault VFS opened (every copy it is installed into), and calls the libc seam saw on
/// files under the data folder.
package struct StorageReach: Codable, Sendable, Equatable {
    package var vfsOpens: Int
    package var libcOpens: Int
    package var libcCalls: Int
    /// Calls under the data folder the kernel refused (EACCES, EPERM, EROFS), by
    /// operation (`open`, `rename`, `delete`…); nil when none was.
    package var libcRefused: [String: Int]?
    /// Folders outside the data folder where the app made or wrote files; nil when none.
    package var outside: [String]?
    /// Calls under the data folder that change a file or a name (write, truncate, rename,
    /// link, delete): what the app attempted, whatever came of it; nil when not counted.
    package var libcChanges: Int?

    package init(vfsOpens: Int, libcOpens: Int, libcCalls: Int) {
        self.vfsOpens = vfsOpens
        self.libcOpens = libcOpens
        self.libcCalls = libcCalls
    }
}

/// The durability settings an app gave its SQLite store, as the fault VFS saw its PRAGMAs:
/// `synchronous` (`off`, `normal`, `full`, `extra`) and whether the journal is a WAL.
package struct StoreSettings: Codable, Sendable, Equatable {
    package var synchronous: String?
    package var wal: Bool?

    package init(synchronous: String?, wal: Bool?) {
        self.synchronous = synchronous
        self.wal = wal
    }

    /// A commit may not survive a power cut at these settings, as SQLite documents: the
    /// WAL with `synchronous` below FULL, or any journal with it OFF.
    package var commitsMayRollBack: Bool {
        synchronous == "off" || (wal == true && synchronous == "normal")
    }
}
