import Foundation
import GRDB
@testable import SystemUnderTest

/// A private data folder per test, removed afterwards.
struct TemporaryAppDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("chaos-sut-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Permission bits may have been cleared by a read-only test.
        _ = chmod(url.appendingPathComponent("app.sqlite").path, 0o644)
        try? FileManager.default.removeItem(at: url)
    }

    var configuration: StoreConfiguration { StoreConfiguration(directory: url) }
}

/// Launches the hardened app, adds favourites 1...count, stops gracefully (which backs up).
@MainActor
func seedFavorites(_ count: Int, in configuration: StoreConfiguration, from first: Int64 = 1) async throws {
    let app = ChaosApp(variant: .hardened, configuration: configuration)
    for id in first..<(first + Int64(count)) {
        let saved = await app.favorites.addFavorite(.numbered(id))
        if !saved { throw SetupError.saveFailed(id) }
    }
    app.stop()
}

enum SetupError: Error { case saveFailed(Int64) }

/// Ids stored, read with a fresh app launch.
@MainActor
func storedIDs(_ app: ChaosApp) async -> Set<Int64> {
    _ = await app.favorites.load()
    return Set(app.favorites.favorites.map(\.id))
}

/// Overwrites `count` bytes at `offset` with a fixed garbage pattern.
func overwrite(_ file: URL, at offset: UInt64, count: Int) throws {
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    handle.write(Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
}

/// Damage nothing can be salvaged from: the file cut back to its 100-byte header (an
/// overwritten header alone is salvaged from the pages: ``RebuiltHeaderCopy``).
func cutToItsHeader(_ file: URL) throws {
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    try handle.truncate(atOffset: 100)
}

func fileSize(_ file: URL) -> UInt64 {
    ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.uint64Value ?? 0
}
