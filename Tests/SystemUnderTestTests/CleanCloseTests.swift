import Foundation
import Testing
@testable import SystemUnderTest

/// A healthy launch skips the full check only for the store the last session closed
/// sound, untouched since (``CleanClose``); anything else is read in full, as before.
extension SystemUnderTestSuite {
    @Suite struct CleanCloseLaunch {
        @Test @MainActor func aStoreClosedSoundOpensWithoutTheFullCheckOnce() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(50, in: configuration)
            #expect(FileManager.default.fileExists(atPath: CleanClose.markerURL(configuration).path))

            let trusted = ChaosApp(variant: .hardened, configuration: configuration)
            #expect(trusted.health.mode == .persistent && trusted.health.closedSoundLastTime)
            #expect(await storedIDs(trusted) == Set(1...50))
            // Used up at launch: a session that then dies leaves no marker behind.
            #expect(!FileManager.default.fileExists(atPath: CleanClose.markerURL(configuration).path))
            trusted.stop()

            // A store that was not closed gracefully is checked in full.
            let crashed = ChaosApp(variant: .hardened, configuration: configuration)
            try? FileManager.default.removeItem(at: CleanClose.markerURL(configuration))
            crashed.stop()
            try? FileManager.default.removeItem(at: CleanClose.markerURL(configuration))
            let checked = ChaosApp(variant: .hardened, configuration: configuration)
            defer { checked.stop() }
            #expect(checked.health.mode == .persistent && !checked.health.closedSoundLastTime)
        }

        @Test @MainActor func aStoreWrittenAfterTheCloseIsCheckedAndItsDamageFound() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(2_000, in: configuration)
            // Same size, a page of garbage in the middle: the file changed since the close.
            let middle = fileSize(configuration.storeURL) / 2 / 4096 * 4096
            try overwrite(configuration.storeURL, at: middle, count: 4096)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(!app.health.closedSoundLastTime)
            #expect([StoreMode.restoredFromBackup, .salvaged].contains(app.health.mode), "\(app.health)")
            #expect(await storedIDs(app).isSuperset(of: Set(1...2_000)))
        }

        @Test func aMarkerOfAnotherFileIsNotTrusted() throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try Data("not a store".utf8).write(to: configuration.storeURL)
            CleanClose.record(configuration)
            // Another file takes the store's name: same size, another inode.
            let other = directory.url.appendingPathComponent("other")
            try Data("not a stor!".utf8).write(to: other)
            #expect(rename(other.path, configuration.storeURL.path) == 0)
            #expect(!CleanClose.consume(configuration))
        }
    }
}
