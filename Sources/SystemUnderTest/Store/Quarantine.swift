import Foundation

/// Moves a damaged store aside — database, WAL and shared-memory files together —
/// into a numbered folder of `quarantine/`. Never deletes: the user's data may still
/// be recoverable by support, and a scenario checks that nothing vanished.
struct Quarantine: Sendable {
    let directory: URL

    /// Moves the files that exist; returns their new paths.
    func isolate(_ files: [URL]) throws -> [URL] {
        let present = files.filter { FileManager.default.fileExists(atPath: $0.path) }
        guard !present.isEmpty else { return [] }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let number = (existing.compactMap { Int($0) }.max() ?? 0) + 1
        let folder = directory.appendingPathComponent(number.zeroPadded(width: 4))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var moved: [URL] = []
        for file in present {
            let destination = folder.appendingPathComponent(file.lastPathComponent)
            try FileManager.default.moveItem(at: file, to: destination)
            moved.append(destination)
        }
        return moved
    }
}
