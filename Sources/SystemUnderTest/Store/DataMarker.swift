import Foundation

/// A mark beside the store that the user has saved data in it: written, and synced with
/// its folder, at the first acknowledged write a store gets; moved aside with the store
/// by a reset. A launch that finds the store gone or empty, no backup holding a record,
/// and this mark, knows the user's data was lost, and says so rather than starting empty
/// without a word. (`chaos hunt` found it: the first write's backup failed, the app was
/// killed, the store emptied while it was closed.)
enum DataMarker {
    static func url(_ configuration: StoreConfiguration) -> URL {
        configuration.directory.appendingPathComponent(configuration.fileName + ".holds-data")
    }

    static func exists(_ configuration: StoreConfiguration) -> Bool {
        FileManager.default.fileExists(atPath: url(configuration).path)
    }

    /// Writes the mark durably; a mark that cannot be written is tried again at the next write.
    @discardableResult
    static func write(_ configuration: StoreConfiguration) -> Bool {
        let path = url(configuration).path
        let file = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        guard file >= 0 else { return false }
        let synced = fsync(file) == 0
        close(file)
        let folder = open(configuration.directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        return synced && fsync(folder) == 0
    }
}
