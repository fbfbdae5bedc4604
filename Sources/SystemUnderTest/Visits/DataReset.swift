import Foundation

/// The data-error screen's "reset data" (seed 003), without its deletion: the store,
/// its `-wal` and `-shm` and its backups are moved into a numbered folder of `reset/`
/// in the data folder, so the next launch starts fresh and nothing is ever deleted
/// (support can still recover what was there). The backups go too: a reset that the
/// next launch undid from a backup would not be the fresh start the user asked for.
struct DataReset {
    let configuration: StoreConfiguration

    var directory: URL { configuration.directory.appendingPathComponent("reset") }

    /// Moves whatever of those files exists; returns their new paths.
    func moveAside() throws -> [URL] {
        let moved = try Quarantine(directory: directory).isolate([
            configuration.storeURL, configuration.walURL, configuration.shmURL, configuration.backupDirectory,
        ])
        // The user asked to start again: the next launch's empty store is no loss.
        try? FileManager.default.removeItem(at: DataMarker.url(configuration))
        return moved
    }

    /// Every file kept aside so far, by the launch's quarantine or by a reset.
    func filesSetAside() -> [String] {
        var found: [String] = []
        for root in [configuration.quarantineDirectory, directory] {
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = root.appendingPathComponent(relative).path
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    found.append(root.lastPathComponent + "/" + relative)
                }
            }
        }
        return found.sorted()
    }
}
