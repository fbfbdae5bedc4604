import Foundation
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// DESIGN.md section 5: put any real damaged database from SQLite's own test suite
    /// in place of the store, and the hardened app launches without a trap, within
    /// 5 s, in a documented mode, with the data of its last backup. The corpus is
    /// material no one on this project wrote (Fixtures/corpus/README.md).
    @Suite struct CorpusLaunch {
        static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/corpus")

        static var files: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
                .filter { $0.hasSuffix(".db") }.sorted()
        }

        @Test func theCorpusIsThere() {
            #expect(Self.files.count == 33)
        }

        @Test(arguments: files)
        @MainActor func aDamagedDatabaseInPlaceOfTheStoreIsRecovered(file: String) async throws {
            let directory = try TemporaryAppDirectory()
            let configuration = directory.configuration
            try await seedFavorites(10, in: configuration)
            try FileManager.default.removeItem(at: configuration.storeURL)
            try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent(file), to: configuration.storeURL)
            _ = chmod(configuration.storeURL.path, 0o644)

            let app = ChaosApp(variant: .hardened, configuration: configuration)
            defer { app.stop() }
            #expect([StoreMode.restoredFromBackup, .salvaged].contains(app.health.mode), "\(file): \(app.health.mode)")
            #expect(app.health.launchDuration < .seconds(5))
            #expect(app.health.userMessage != nil)
            #expect(app.health.quarantinedFiles.contains { $0.hasSuffix("/app.sqlite") }, "the damaged file is kept")
            #expect(await storedIDs(app).isSuperset(of: Set(1...10)), "the last backup's data is back")
        }
    }
}
