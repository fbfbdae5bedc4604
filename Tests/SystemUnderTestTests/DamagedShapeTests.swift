import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

/// The damaged shapes a store takes that SQLite opens without complaint, or nearly:
/// emptied to zero bytes, cut back to its header, cut in the middle of a page, its WAL
/// garbled. For every feature of the app: its records, written through the feature and
/// backed up by a graceful stop, are there after the damage, and the user is told
/// when the store itself was put back.
extension SystemUnderTestSuite {
    @Suite struct DamagedShapes {
        enum Feature: String, CaseIterable, Sendable {
            case favorites, vocabulary, visits, settings, family

            var table: String {
                switch self {
                case .favorites: "favorite"
                case .vocabulary: "vocabularyWord"
                case .visits: "visit"
                case .settings: "setting"
                case .family: "family"
                }
            }

            /// Writes `count` records through the feature, as a user would.
            @MainActor
            func write(_ count: Int, from first: Int64, in app: ChaosApp) async -> Bool {
                var saved = true
                for id in first..<(first + Int64(count)) {
                    switch self {
                    case .favorites: saved = await app.favorites.addFavorite(.numbered(id)) && saved
                    case .vocabulary:
                        if id == first { saved = await app.vocabulary.library.createSet(VocabularySet(id: 1, name: "Words")) || first > 1 }
                        saved = await app.vocabulary.library.addWords([.numbered(id, in: 1)]) && saved
                    case .visits: saved = await app.visits.list.addVisit(.numbered(id)) && saved
                    case .settings:
                        let keys = SettingKey.allCases
                        saved = app.settings.set("value \(id)", for: keys[Int(id - 1) % keys.count]) != nil && saved
                    case .family: saved = await app.family.newScreen().create(name: "Family \(id)") && saved
                    }
                }
                return saved
            }

            /// Records the feature can have: settings are a fixed set of keys.
            func expected(_ written: Int) -> Int { self == .settings ? min(written, SettingKey.allCases.count) : written }
        }

        enum Shape: String, CaseIterable, Sendable {
            case zeroLength = "zero length"
            case headerOnly = "header only"
            case truncatedMidPage = "truncated mid-page"
            case garbageWAL = "garbage WAL"
        }

        @Test(arguments: Feature.allCases, Shape.allCases)
        @MainActor func theBackedUpRecordsSurviveTheShape(feature: Feature, shape: Shape) async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            let app = ChaosApp(variant: .hardened, configuration: configuration)
            #expect(await feature.write(5, from: 1, in: app))
            app.stop()  // a graceful stop: checkpointed and backed up
            try damage(configuration, shape: shape, feature: feature)

            let relaunched = ChaosApp(variant: .hardened, configuration: configuration)
            defer { relaunched.stop() }
            let count = try await #require(relaunched.store).writer.read { db in
                try db.tableExists(feature.table) ? try Int.fetchOne(db, sql: "SELECT count(*) FROM \(feature.table)") ?? 0 : 0
            }
            #expect(count >= feature.expected(5), "\(feature) after \(shape.rawValue): \(relaunched.health.mode)")
            if shape != .garbageWAL {
                #expect([StoreMode.restoredFromBackup, .salvaged].contains(relaunched.health.mode), "\(relaunched.health.mode)")
                #expect(relaunched.health.severity == .warning)
                #expect(relaunched.health.userMessage != nil)
            }
        }

        /// Damages the store of a stopped app; a garbage WAL needs one first: more writes
        /// after the backup, by an app that is never stopped (its WAL is left as it is).
        @MainActor
        private func damage(_ configuration: StoreConfiguration, shape: Shape, feature: Feature) throws {
            let store = configuration.storeURL.path
            switch shape {
            case .zeroLength: #expect(truncate(store, 0) == 0)
            case .headerOnly: #expect(truncate(store, 100) == 0)
            case .truncatedMidPage: #expect(truncate(store, off_t(fileSize(configuration.storeURL) / 2 + 1_000)) == 0)
            case .garbageWAL:
                let pool = try DatabasePool(path: store)
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                    try db.execute(sql: "INSERT INTO \(feature.table) (id) SELECT 10000 WHERE 0")  // opens a write
                }
                #expect(FileManager.default.fileExists(atPath: store + "-wal"))
                try overwrite(URL(fileURLWithPath: store + "-wal"), at: 0, count: 32)
                try? pool.close()
                try? overwrite(URL(fileURLWithPath: store + "-wal"), at: 0, count: 32)
            }
        }
    }
}
