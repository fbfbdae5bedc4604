import Foundation
import Chaos
import FaultPoints
import GRDB
import Testing
@testable import SystemUnderTest

/// Seed 003's launch health check: each cause it names, as this app meets it, and
/// what the visits tab then shows.
extension SystemUnderTestSuite {
    @Suite struct VisitsLaunchHealth {
        /// Launches, adds visits 1...count, stops gracefully.
        @MainActor static func seedVisits(_ count: Int, in configuration: StoreConfiguration) async throws {
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            for id in 1...Int64(count) {
                if await !app.visits.list.addVisit(.numbered(id)) { throw SetupError.saveFailed(id) }
            }
            app.stop()
        }

        /// Marks the store as migrated by a newer version of the app.
        static func markWrittenByNewerVersion(_ configuration: StoreConfiguration) throws {
            let queue = try DatabaseQueue(path: configuration.storeURL.path)
            try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v-from-a-newer-version')") }
            try queue.close()
        }

        @Test @MainActor func aHealthyStoreShowsTheList() async throws {
            let directory = try TemporaryAppDirectory()
            try await Self.seedVisits(3, in: directory.configuration)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.visits.health.isHealthy)
            #expect(app.visits.health.loadError == nil)
            #expect(!app.visits.isShowingDataError)
            #expect(await app.visits.list.load())
            #expect(app.visits.list.visits.map(\.id) == [1, 2, 3])
            #expect(app.visits.surfaced.severity == .none)
        }

        @Test @MainActor func aNewerStoreIsLeftByteForByteAndShowsTheErrorScreen() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await Self.seedVisits(3, in: configuration)
            try Self.markWrittenByNewerVersion(configuration)
            let before = try Data(contentsOf: configuration.storeURL)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            #expect(app.health.newerSchema)
            #expect(app.health.mode == .readOnly)
            #expect(app.health.quarantinedFiles.isEmpty)
            #expect(app.health.loadError?.contains("v-from-a-newer-version") == true)
            #expect(app.visits.health.problem == .newerVersion)
            #expect(!app.visits.health.isHealthy)
            let screen = try #require(app.visits.dataError)
            #expect(screen.message.contains("newer version"))
            #expect(app.visits.surfaced.severity == .error)
            // A change elsewhere in the app is refused, not written into the newer file.
            #expect(await app.favorites.addFavorite(.numbered(1)) == false)
            app.stop()

            #expect(try Data(contentsOf: configuration.storeURL) == before, "not migrated, not backed up, not touched")
            #expect(!FileManager.default.fileExists(atPath: configuration.quarantineDirectory.path))
        }

        @Test @MainActor func aDamagedStoreWithNoBackupShowsTheErrorScreen() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await Self.seedVisits(3, in: configuration)
            try FileManager.default.removeItem(at: configuration.backupDirectory)
            try cutToItsHeader(configuration.storeURL)
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.visits.health.problem == .damaged)
            #expect(app.visits.isShowingDataError)
            #expect(app.visits.filesSetAside.contains("quarantine/0001/app.sqlite"), "set aside by the launch, kept")
        }

        @Test @MainActor func aReadOnlyStoreShowsTheListWithANotice() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await Self.seedVisits(2, in: configuration)
            #expect(chmod(configuration.storeURL.path, 0o444) == 0)
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.visits.health.problem == .permissionDenied)
            #expect(!app.visits.isShowingDataError)
            #expect(app.visits.notice != nil)
            #expect(await app.visits.list.load())
            #expect(app.visits.list.visits.count == 2)
            #expect(await app.visits.list.addVisit(.numbered(9)) == false)
            #expect(app.visits.list.errorMessage == DatabaseError.readOnly(underlying: "").userMessage)
        }

        @Test @MainActor func aFullDeviceAtLaunchShowsTheListAndRefusesNewVisitsPlainly() async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await Self.seedVisits(2, in: configuration)
            // A real SQLITE_FULL from the fault VFS, as in a worker, for this folder only.
            try SQLiteFaultVFS.register()
            try StorageHook.arm(ArmedFault(id: "full", fault: DiskFullFault(), trigger: Trigger(), seed: 0), under: directory.url.path)
            defer { StorageHook.disarmAll() }
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect(app.visits.health.problem == .storageFull)
            #expect(!app.visits.isShowingDataError)
            #expect(await app.visits.list.load())
            #expect(app.visits.list.visits.count == 2)
            #expect(await app.visits.list.addVisit(.numbered(3)) == false)
            #expect(app.visits.list.recoverySuggestion == DatabaseError.saveFailed(underlying: "").recoverySuggestion)
            #expect(app.visits.surfaced.severity == .error)
        }

        @Test @MainActor func legacyLaunchOnAHealthyStoreIsFine() async throws {
            let directory = try TemporaryAppDirectory()
            try await Self.seedVisits(2, in: directory.configuration)
            let app = ChaosApp(variant: .legacy, configuration: directory.configuration)
            defer { app.stop() }
            #expect(app.visits.health.isHealthy)
            #expect(await app.visits.list.load())
        }

        @Test @MainActor func aFetchFailureIsShownWithABoundedRetry() async throws {
            let directory = try TemporaryAppDirectory()
            try await Self.seedVisits(2, in: directory.configuration)
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop(); FaultRegistry.shared.reset() }
            FaultRegistry.shared.arm(.visitsFetch, always: .fail(message: "disk on fire"))
            #expect(await app.visits.list.load() == false)
            #expect(app.visits.list.errorMessage == "Unable to load visits. Please try again.")
            for _ in 0..<app.visits.list.maxRetries { #expect(await app.visits.list.retry() == false) }
            #expect(!app.visits.list.canRetry)
            FaultRegistry.shared.reset()
            #expect(await app.visits.list.retry() == false, "bounded: no fourth retry")
            #expect(await app.visits.list.load())
        }
    }
}
