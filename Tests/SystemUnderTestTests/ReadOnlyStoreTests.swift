import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// Which WALs SQLite reads nothing from (and so loops on, read-only, beside a `-shm`
    /// the app may not write), and that the store is then read whole without them.
    @Suite struct ReadOnlyStoreTests {
        /// A store in WAL mode holding `rows` rows, every one checkpointed into the store
        /// file, and the WAL's bytes as a crash would have left them.
        static func store(rows: Int, in folder: URL) throws -> (store: String, wal: Data) {
            let path = folder.appendingPathComponent("app.sqlite").path
            let pool = try DatabasePool(path: path)
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE visits (id INTEGER PRIMARY KEY)")
                for id in 1...rows { try db.execute(sql: "INSERT INTO visits (id) VALUES (?)", arguments: [id]) }
            }
            _ = try pool.writeWithoutTransaction { try $0.checkpoint(.full) }
            let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            try pool.close()
            return (path, wal)
        }

        @Test func aWALSQLiteReadsNothingFromIsToldApart() throws {
            let folder = try TemporaryAppDirectory()
            let (store, wal) = try Self.store(rows: 3, in: folder.url)
            let walPath = store + "-wal"
            #expect(!ReadOnlyStore.walHoldsNothing(walPath), "no WAL at all: SQLite reads the store alone")
            func with(_ bytes: Data) throws -> Bool {
                try bytes.write(to: URL(fileURLWithPath: walPath))
                return ReadOnlyStore.walHoldsNothing(walPath)
            }
            #expect(try with(wal.prefix(32)), "its header alone")
            #expect(try with(Data(repeating: 0xA5, count: 20_656)), "garbage, as a torn write leaves it")
            #expect(try !with(wal.prefix(16)), "shorter than a header: SQLite does not loop")
            #expect(try !with(wal), "a header and frames: SQLite reads them")
        }

        @Test func aStoreBesideAGarbageWALIsReadWhole() throws {
            let folder = try TemporaryAppDirectory()
            let (store, _) = try Self.store(rows: 5, in: folder.url)
            try Data(repeating: 0xA5, count: 8_192).write(to: URL(fileURLWithPath: store + "-wal"))
            let queue = try ReadOnlyStore.open(store)
            defer { try? queue.close() }
            #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM visits") } == 5)
        }

        @Test func aPathIsEscapedForItsURI() {
            #expect(ReadOnlyStore.immutableURI("/data/a?b#c%d/app.sqlite") == "file:/data/a%3fb%23c%25d/app.sqlite?immutable=1")
        }
    }
}
