import Foundation
import FaultPoints
import Testing
@testable import SystemUnderTest

/// The launch sequence on every kind of store a user's device can hold.
/// Serialized with the rest of this target: fault points are process-global.
extension SystemUnderTestSuite {
    @Suite struct StoreLaunch {
        @Test @MainActor func healthyStoreOpensPersistentWithNothingToSay() async throws {
            let directory = try TemporaryAppDirectory()
            try await seedFavorites(20, in: directory.configuration)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.health.mode == .persistent)
            #expect(app.health.isHealthy)
            #expect(app.health.userMessage == nil)
            #expect(await storedIDs(app) == Set(1...20))
        }

        @Test @MainActor func garbageHeaderIsQuarantinedAndRestoredFromBackup() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(25, in: configuration)
            try overwrite(configuration.storeURL, at: 0, count: 100)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .restoredFromBackup)
            #expect(app.health.userMessage == LaunchMessages.restored)
            #expect(!app.health.isHealthy)
            #expect(await storedIDs(app) == Set(1...25))
            // The damaged file was moved aside, not deleted.
            let quarantined = try #require(app.health.quarantinedFiles.first { $0.hasSuffix("/app.sqlite") })
            #expect(FileManager.default.fileExists(atPath: quarantined))
        }

        @Test @MainActor func truncatedStoreIsRestoredFromBackup() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(2_000, in: configuration)
            let size = fileSize(configuration.storeURL)
            #expect(truncate(configuration.storeURL.path, off_t(size / 2 / 4096 * 4096)) == 0)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect([StoreMode.restoredFromBackup, .salvaged].contains(app.health.mode))
            #expect(app.health.severity == .warning)
            #expect(app.health.userMessage != nil)
            #expect(await storedIDs(app).isSuperset(of: Set(1...2_000)))
        }

        @Test @MainActor func zeroedPagesInTheMiddleKeepBackupAndSalvageNewerRows() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(2_000, in: configuration)
            // Rows written after the last backup, then the app dies without a graceful stop.
            do {
                let app = ChaosApp(variant: .hardened, configuration: configuration)
                for id in Int64(2_001)...2_050 { #expect(await app.favorites.addFavorite(.numbered(id))) }
                _ = try await #require(app.store).writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            }
            let size = fileSize(configuration.storeURL)
            let middle = size / 2 / 4096 * 4096
            let handle = try FileHandle(forWritingTo: configuration.storeURL)
            try handle.seek(toOffset: middle)
            handle.write(Data(count: 2 * 4096))
            try handle.close()

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect([StoreMode.restoredFromBackup, .salvaged].contains(app.health.mode))
            #expect(app.health.userMessage != nil)
            let ids = await storedIDs(app)
            #expect(ids.isSuperset(of: Set(1...2_000)), "every row of the last backup is kept")
            if app.health.mode == .salvaged {
                #expect(app.health.salvagedRows > 0)
                #expect(ids.count == 2_000 + app.health.salvagedRows)
            }
        }

        @Test @MainActor func deletedStoreIsRestoredFromBackup() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(12, in: configuration)
            try FileManager.default.removeItem(at: configuration.storeURL)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .restoredFromBackup)
            #expect(app.health.userMessage == LaunchMessages.restored)
            #expect(await storedIDs(app) == Set(1...12))
        }

        @Test @MainActor func firstLaunchWithoutStoreOrBackupStartsFresh() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.health.mode == .persistent)
            #expect(app.health.userMessage == nil)
            #expect(await storedIDs(app).isEmpty)
            #expect(app.favorites.state == .empty)
        }

        @Test @MainActor func readOnlyStoreReadsButRefusesWritesClearly() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(7, in: configuration)
            #expect(chmod(configuration.storeURL.path, 0o444) == 0)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .readOnly)
            #expect(app.health.userMessage == LaunchMessages.readOnly)
            #expect(await storedIDs(app) == Set(1...7))
            #expect(await app.favorites.addFavorite(.numbered(99)) == false)
            #expect(app.favorites.errorMessage == DatabaseError.readOnly(underlying: "").userMessage)
            #expect(await storedIDs(app) == Set(1...7))
        }

        /// An older version's store the app may not write cannot be migrated in place: it
        /// is shown from a migrated copy that refuses writes as the store would, and the
        /// file is left as it was (once, it ran on memory and said its data was set aside).
        @Test @MainActor func anOlderReadOnlyStoreIsShownFromAMigratedCopy() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
            let version = try #require(OlderSchemaFixtureTests.versions.first { $0.wal })
            try OlderSchemaFixtureTests.make(version, at: configuration.storeURL)
            #expect(chmod(configuration.storeURL.path, 0o444) == 0)
            let before = try Data(contentsOf: configuration.storeURL)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            #expect(app.health.mode == .readOnly)
            #expect(app.health.userMessage == LaunchMessages.readOnly)
            #expect(await storedIDs(app) == Set(1...12))
            #expect(await app.favorites.addFavorite(.numbered(99)) == false)
            #expect(app.favorites.errorMessage == DatabaseError.readOnly(underlying: "").userMessage)
            #expect(await storedIDs(app) == Set(1...12))
            app.stop()
            #expect(try Data(contentsOf: configuration.storeURL) == before)
        }

        @Test @MainActor func damagedStoreWithoutBackupRunsInMemoryAndKeepsTheFile() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(9, in: configuration)
            try FileManager.default.removeItem(at: configuration.backupDirectory)
            try cutToItsHeader(configuration.storeURL)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .inMemory)
            #expect(app.health.severity == .error)
            #expect(app.health.userMessage == LaunchMessages.inMemory)
            #expect(app.health.quarantinedFiles.contains { $0.hasSuffix("/app.sqlite") })
            // The app still works for this session.
            #expect(await app.favorites.addFavorite(.numbered(1)))
            #expect(await storedIDs(app) == [1])
        }

        /// Only the header is garbage: the pages still hold every favourite, and a copy
        /// with a header rebuilt from them gives each one back (it ran on memory, empty).
        @Test @MainActor func aGarbageHeaderWithoutBackupIsSalvagedFromItsPages() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(9, in: configuration)
            try FileManager.default.removeItem(at: configuration.backupDirectory)
            try overwrite(configuration.storeURL, at: 0, count: 100)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.health.mode == .salvaged)
            #expect(app.health.salvagedRows == 9)
            #expect(app.health.userMessage == LaunchMessages.salvaged)
            #expect(app.health.quarantinedFiles.contains { $0.hasSuffix("/app.sqlite") })
            #expect(await storedIDs(app) == Set(1...9))
            let left = try FileManager.default.subpathsOfDirectory(atPath: configuration.quarantineDirectory.path)
            #expect(!left.contains { $0.contains(".rebuilt-") }, "the rebuilt copy is removed: \(left)")
        }

        @Test @MainActor func backupsAreNumberedAndPruned() async throws {
            let directory = try TemporaryAppDirectory()
            var configuration = directory.configuration
            configuration.backupEveryWrites = 5
            configuration.backupsKept = 3
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            for id in Int64(1)...30 { _ = await app.favorites.addFavorite(.numbered(id)) }
            app.stop()
            let names = try #require(app.store).backupFiles.map(\.lastPathComponent)
            #expect(names.count == 3)
            #expect(names.first == "backup-000008.sqlite", "1 at launch, 6 by writes, 1 at stop")
        }

        @Test @MainActor func storeRunsInWALWithFullSynchronous() async throws {
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            let store = try #require(app.store)
            let (journal, synchronous) = try await store.writer.writeWithoutTransaction { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(journal == "wal")
            #expect(synchronous == 2, "FULL")
        }
    }
}
