import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// The stores older versions of the app left, as the migration scenarios put them
    /// in place (`fixtures/older-schema-*.sqlite`): each is the app's own migrations up
    /// to one version, in the journal mode of its name, holding twelve favourites. The
    /// test holds each file to what those migrations make, so a fixture cannot drift
    /// from the schema it claims; `CHAOS_WRITE_FIXTURES=1` writes them again.
    @Suite struct OlderSchemaFixtureTests {
        struct Version: Sendable, CustomStringConvertible {
            var file: String
            var upTo: String
            var wal: Bool
            var description: String { file }
        }

        static let versions = [
            Version(file: "older-schema-v1.sqlite", upTo: "v1-favorites", wal: false),
            Version(file: "older-schema-v2-wal.sqlite", upTo: "v2-vocabulary", wal: true),
            Version(file: "older-schema-family.sqlite", upTo: "v-family", wal: false),
            Version(file: "older-schema-visits-wal.sqlite", upTo: "v-visits", wal: true),
        ]
        static let favourites: Int64 = 12

        static var folder: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/Scenarios/fixtures")
        }

        /// The store version `version` of the app leaves after the user saved twelve favourites.
        static func make(_ version: Version, at url: URL) throws {
            try? FileManager.default.removeItem(at: url)
            let writer: any DatabaseWriter = version.wal ? try DatabasePool(path: url.path) : try DatabaseQueue(path: url.path)
            try AppSchema.migrator.migrate(writer, upTo: version.upTo)
            try writer.write { db in
                for id in 1...favourites { try Favorite.numbered(id).insert(db) }
            }
            try writer.close()
        }

        /// Read as an immutable file: a look at a WAL store must not leave a `-wal` and a
        /// `-shm` beside a fixture.
        static func schema(of path: String) throws -> [String] {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: ReadOnlyStore.immutableURI(path), configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY name")
                    + String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                    + ["favourites: \(try Int.fetchOne(db, sql: "SELECT count(*) FROM favorite") ?? -1)"]
            }
        }

        @Test(arguments: versions)
        func eachFixtureIsItsVersionsSchemaWithTheUsersFavourites(version: Version) throws {
            let fixture = Self.folder.appendingPathComponent(version.file)
            if ProcessInfo.processInfo.environment["CHAOS_WRITE_FIXTURES"] == "1" { try Self.make(version, at: fixture) }
            let folder = try TemporaryAppDirectory()
            let fresh = folder.url.appendingPathComponent(version.file)
            try Self.make(version, at: fresh)
            #expect(try Self.schema(of: fixture.path) == (try Self.schema(of: fresh.path)))
            // Bytes 18 and 19 of the header: 2 for WAL, 1 for a rollback journal.
            let header = try #require(FileHandle(forReadingAtPath: fixture.path)).readData(ofLength: 20)
            #expect(header.count == 20 && header[header.startIndex + 18] == (version.wal ? 2 : 1))
            #expect(!FileManager.default.fileExists(atPath: fixture.path + "-wal"), "closed cleanly: no WAL beside it")
        }
    }
}
