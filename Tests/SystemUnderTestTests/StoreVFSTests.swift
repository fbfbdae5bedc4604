import Chaos
import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// The store's connections go through the fault VFS once it is registered, as in a
    /// worker: that is what lets Chaos fail a write or tear it.
    @Suite struct StoreThroughFaultVFS {
        @Test @MainActor func everyConnectionOfThePoolUsesTheShim() async throws {
            try SQLiteFaultVFS.register()
            let directory = try TemporaryAppDirectory()
            let app = ChaosApp(variant: .hardened, configuration: directory.configuration)
            defer { app.stop() }
            #expect(await app.favorites.addFavorite(.numbered(1)))
            let store = try #require(app.store)
            let writerVFS = try await store.writer.write { db in SQLiteFaultVFS.vfsName(ofConnection: db.sqliteConnection!) }
            let readerVFS = try await store.writer.read { db in SQLiteFaultVFS.vfsName(ofConnection: db.sqliteConnection!) }
            #expect(writerVFS?.hasPrefix("chaos") == true, "writer: \(writerVFS ?? "nil")")
            #expect(readerVFS?.hasPrefix("chaos") == true, "reader: \(readerVFS ?? "nil")")
        }
    }
}
