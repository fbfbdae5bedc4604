import ChaosTarget
import Foundation

/// What a file fault did to the database as SQLite reads it (the store with its WAL,
/// opened read-only with the plain VFS on a copy): changed it, broke it, or nothing at
/// all — bytes of a page the WAL shadows, bytes past the end, free space.
struct FileDamageEffect: Equatable {
    var hadEffect: Bool
    var summary: String

    /// The store as it was before the damage: its image, and a copy to read back from.
    struct Before {
        let image: DatabaseImage?
        let copy: URL?
    }

    /// Takes what the comparison needs, before the damage is done.
    static func before(store: URL, scratch: URL) -> Before {
        Before(image: DatabaseImage.read(store: store), copy: copy(store, to: scratch.appendingPathComponent("before")))
    }

    /// Compares the store after the damage with `before`.
    static func after(_ before: Before, store: URL, scratch: URL) -> FileDamageEffect {
        let after = DatabaseImage.read(store: store)
        let name = store.lastPathComponent
        let changed = DatabaseImage.changedPages(before.image, after)
        guard !changed.isEmpty || (before.image == nil) != (after == nil) else {
            return FileDamageEffect(hadEffect: false, summary: "no effect: " + whyNothing(before.image, after, name: name))
        }
        guard let after, let copy = copy(store, to: scratch.appendingPathComponent("after")) else {
            return FileDamageEffect(hadEffect: true, summary: "\(name) is gone: SQLite finds no database")
        }
        _ = after
        switch DatabaseDigest.of(copy.path) {
        case let .failure(unreadable):
            return FileDamageEffect(hadEffect: true, summary: "SQLite can no longer read the database: \(unreadable)")
        case let .success(digest):
            if let problem = IntegrityCheck.problems(at: copy.path) {
                return FileDamageEffect(hadEffect: true, summary: "\(changed.count) pages changed; integrity_check now fails: \(problem)")
            }
            let old = before.copy.flatMap { try? DatabaseDigest.of($0.path).get() }
            guard old != digest else {
                return FileDamageEffect(hadEffect: false, summary: "no effect: \(changed.count) pages changed only where SQLite keeps no data (free space)")
            }
            return FileDamageEffect(hadEffect: true, summary: "\(changed.count) pages changed; the database reads different data, and integrity_check still passes")
        }
    }

    /// A plain file's bytes, to tell whether a damage changed any: a digest, nil when
    /// there is no such file. A folder's is its entries' names and bytes, walked in order.
    static func digest(of url: URL) -> [UInt8]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else {
            // Chunk by chunk: a backup of a million records is not held in memory to be told apart.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let length = FileChunks.read(url.path) { chunk in hash = (hash ^ PageHash.of(chunk)) &* 0x0000_0100_0000_01b3 } ?? -1
            return withUnsafeBytes(of: (hash ^ UInt64(bitPattern: Int64(length))).bigEndian, Array.init)
        }
        var listing: [UInt8] = Array("folder\n".utf8)
        for name in ((try? FileManager.default.subpathsOfDirectory(atPath: url.path)) ?? []).sorted() {
            listing += Array((name + "\n").utf8) + (digest(of: url.appendingPathComponent(name)) ?? [])
        }
        return SHA256.digest(of: listing)
    }

    /// What a damage did to a plain file, by its bytes (`before` from ``digest(of:)``).
    static func bytes(before: [UInt8]?, url: URL) -> FileDamageEffect {
        let after = digest(of: url)
        let name = url.lastPathComponent
        switch (before, after) {
        case (nil, nil): return FileDamageEffect(hadEffect: false, summary: "no effect: there is no \(name)")
        case (_?, nil): return FileDamageEffect(hadEffect: true, summary: "\(name) is gone")
        case (nil, _?): return FileDamageEffect(hadEffect: true, summary: "\(name) was put in place")
        case let (old?, new?):
            return old == new ? FileDamageEffect(hadEffect: false, summary: "no effect: no byte of \(name) changed")
                : FileDamageEffect(hadEffect: true, summary: "the bytes of \(name) changed")
        }
    }

    /// Why damage to the files changed nothing SQLite reads.
    private static func whyNothing(_ before: DatabaseImage?, _ after: DatabaseImage?, name: String) -> String {
        let damaged = DatabaseImage.changedMainPages(before, after)
        if let before, !before.fromWAL.isEmpty {
            let unshadowed = Set(before.mainPages.keys).subtracting(before.fromWAL)
            if damaged.isSubset(of: before.fromWAL) && (!damaged.isEmpty || unshadowed.isEmpty) {
                return "the damage landed in \(name), but every page it could reach is read from \(name)-wal "
                    + "(the app never checkpointed it: damage the store with scope: database to reach them)"
            }
        }
        if damaged.isEmpty {
            return "no byte of \(name) changed (the part it hit already held those bytes)"
        }
        return "the damaged bytes of \(name) are not part of the database SQLite reads"
    }

    /// A copy of the store and its WAL in `folder`; nil when there is no store.
    private static func copy(_ store: URL, to folder: URL) -> URL? {
        let fm = FileManager.default
        guard fm.fileExists(atPath: store.path) else { return nil }
        try? fm.removeItem(at: folder)
        try? fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal"] where fm.fileExists(atPath: store.path + suffix) {
            try? fm.copyItem(atPath: store.path + suffix, toPath: target.path + suffix)
        }
        return fm.fileExists(atPath: target.path) ? target : nil
    }
}
