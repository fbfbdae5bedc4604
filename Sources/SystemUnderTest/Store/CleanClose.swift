import Foundation

/// What the last session left behind, so a healthy launch costs no more than opening
/// (seed 000, NFR-2: error handling must not impact start-up time).
///
/// A full `quick_check` reads every page: 250 ms at a million favourites. A graceful
/// close folds the WAL into the store and then writes this marker: the store file's
/// identity, size and modification time. The next launch that finds the same file,
/// untouched, with an empty WAL, knows the store is the one the app closed sound and
/// skips the check; any other store — a crash left it, something wrote it while the app
/// was closed, another file took its place — gets the full check, as before. The
/// marker is removed as soon as a launch has read it: a session that ends without a
/// graceful close leaves none.
enum CleanClose {
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64  // nanoseconds

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }

        init?(line: String) {
            let numbers = line.split(separator: " ").compactMap { Int64($0) }
            guard numbers.count == 4 else { return nil }
            device = UInt64(bitPattern: numbers[0])
            inode = UInt64(bitPattern: numbers[1])
            size = numbers[2]
            modified = numbers[3]
        }

        var line: String { "\(Int64(bitPattern: device)) \(Int64(bitPattern: inode)) \(size) \(modified)" }
    }

    static func markerURL(_ configuration: StoreConfiguration) -> URL {
        configuration.directory.appendingPathComponent(configuration.fileName + ".closed-sound")
    }

    /// Records, after a graceful close, the store as the app left it.
    static func record(_ configuration: StoreConfiguration) {
        guard let identity = Identity(path: configuration.storeURL.path) else { return }
        try? Data(identity.line.utf8).write(to: markerURL(configuration), options: .atomic)
    }

    /// True when the store is the very file the last session closed sound, untouched
    /// since, with nothing in its WAL. The marker is used up either way.
    static func consume(_ configuration: StoreConfiguration) -> Bool {
        let marker = markerURL(configuration)
        guard let data = FileManager.default.contents(atPath: marker.path) else { return false }
        try? FileManager.default.removeItem(at: marker)
        guard let recorded = Identity(line: String(decoding: data, as: UTF8.self)),
              let now = Identity(path: configuration.storeURL.path), now == recorded else { return false }
        let wal = Identity(path: configuration.walURL.path)
        return wal == nil || wal?.size == 0
    }
}
