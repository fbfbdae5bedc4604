import Foundation
import Testing
@testable import SystemUnderTest

/// A store cut short with no backup: SQLite refuses the whole file while its header
/// gives the old length; the salvage reads a copy told the real one.
extension SystemUnderTestSuite {
    @Suite struct CutStoreSalvage {
        @Test @MainActor func aTruncatedStoreWithNoBackupIsSalvagedNotDropped() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(5_000, in: configuration)
            try FileManager.default.removeItem(at: configuration.backupDirectory)
            let size = fileSize(configuration.storeURL)
            #expect(truncate(configuration.storeURL.path, off_t(size / 2 / 4096 * 4096)) == 0)
            let cut = try Data(contentsOf: configuration.storeURL)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .salvaged, "\(app.health)")
            let kept = await storedIDs(app)
            #expect(kept.count > 1_000 && kept.isSubset(of: Set(1...5_000)), "\(kept.count) rows salvaged")
            // The damaged file in quarantine is the one that was cut, byte for byte.
            let quarantined = try #require(app.health.quarantinedFiles.first { $0.hasSuffix("/app.sqlite") })
            #expect(try Data(contentsOf: URL(fileURLWithPath: quarantined)) == cut)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: quarantined).deletingLastPathComponent().path)
            #expect(!leftovers.contains { $0.contains(".salvage-") }, "\(leftovers)")
        }

        @Test func aStoreThatIsNotCutNeedsNoCopy() throws {
            let directory = try TemporaryAppDirectory()
            let path = directory.url.appendingPathComponent("whole.sqlite").path
            var header = Data("SQLite format 3\u{0}".utf8) + Data(count: 84)
            header[16] = 0x10  // 4096-byte pages
            header[31] = 2     // two pages, and two there
            try (header + Data(count: 8192 - 100)).write(to: URL(fileURLWithPath: path))
            #expect(CutStoreCopy(of: path) == nil)
            #expect(CutStoreCopy(of: directory.url.appendingPathComponent("missing").path) == nil)
        }
    }
}
