import Foundation
import GRDB

/// Numbered backups of the store, made with SQLite's online backup API.
///
/// Numbered, never chosen by wall-clock time: a clock that jumps back must not make
/// an old backup look like the newest. A backup is written to a temporary file and
/// renamed into place, so a crash mid-backup never leaves a half backup under a
/// backup's name.
///
/// Related SQLite documentation: <https://www.sqlite.org/backup.html>
struct StoreBackups: Sendable {
    let directory: URL
    let kept: Int

    private static let prefix = "backup-"
    private static let suffix = ".sqlite"

    /// Backups present, newest (highest number) first.
    func list() -> [(number: Int, url: URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> (Int, URL)? in
            guard name.hasPrefix(Self.prefix), name.hasSuffix(Self.suffix) else { return nil }
            let digits = name.dropFirst(Self.prefix.count).dropLast(Self.suffix.count)
            guard let number = Int(digits) else { return nil }
            return (number, directory.appendingPathComponent(name))
        }
        .sorted { $0.0 > $1.0 }
    }

    /// Copies `source` into the next numbered backup and prunes old ones.
    @discardableResult
    func take(from source: any DatabaseReader) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let number = (list().first?.number ?? 0) + 1
        let final = directory.appendingPathComponent(Self.prefix + number.zeroPadded(width: 6) + Self.suffix)
        let temporary = directory.appendingPathComponent("incomplete-\(number)\(Self.suffix)")
        try? FileManager.default.removeItem(at: temporary)
        let destination = try DatabaseQueue(path: temporary.path)
        do {
            try source.backup(to: destination)
            try destination.close()
        } catch {
            try? destination.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, final.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final.path])
        }
        prune()
        return final
    }

    /// The newest backup that opens and passes `PRAGMA quick_check`.
    func newestGood() -> URL? {
        list().lazy.map(\.url).first { StoreIntegrity.quickCheck(path: $0.path) == nil }
    }

    private func prune() {
        for old in list().dropFirst(kept) {
            try? FileManager.default.removeItem(at: old.url)
        }
    }
}
