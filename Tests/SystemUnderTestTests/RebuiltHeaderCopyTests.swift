import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// A store whose header is garbage: the page size is read back from its pages, at
    /// every size SQLite allows, and a copy with a rebuilt header reads every row.
    @Suite struct RebuiltHeaderCopyTests {
        static func store(pageSize: Int, rows: Int, in folder: URL) throws -> String {
            let path = folder.appendingPathComponent("store-\(pageSize).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = \(pageSize)")
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "CREATE TABLE favorite (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                try db.inTransaction {
                    for id in 1...rows { try db.execute(sql: "INSERT INTO favorite VALUES (?, ?)", arguments: [id, "Pokemon \(id)"]) }
                    return .commit
                }
            }
            try queue.close()
            try overwrite(URL(fileURLWithPath: path), at: 0, count: 100)
            return path
        }

        @Test(arguments: [512, 1_024, 4_096, 16_384, 65_536])
        func thePageSizeComesBackFromThePagesAndEveryRowWithIt(pageSize: Int) throws {
            let folder = try TemporaryAppDirectory()
            let path = try Self.store(pageSize: pageSize, rows: 3_000, in: folder.url)
            #expect(RebuiltHeaderCopy.inferredPageSize(of: path) == pageSize)
            let copy = try #require(RebuiltHeaderCopy(of: path))
            defer { copy.remove() }
            let queue = try DatabaseQueue(path: copy.path)
            defer { try? queue.close() }
            #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM favorite") } == 3_000)
            #expect(try queue.read { try String.fetchOne($0, sql: "SELECT name FROM favorite WHERE id = 2999") } == "Pokemon 2999")
        }

        @Test func aStoreWithItsHeaderIsLeftToSQLite() throws {
            let folder = try TemporaryAppDirectory()
            let path = folder.url.appendingPathComponent("sound.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "CREATE TABLE t (x)") }
            try queue.close()
            #expect(RebuiltHeaderCopy.inferredPageSize(of: path) == nil)
            #expect(RebuiltHeaderCopy(of: path) == nil)
        }

        @Test func garbageThroughoutHasNoPageSize() throws {
            let folder = try TemporaryAppDirectory()
            let path = folder.url.appendingPathComponent("garbage.sqlite")
            try Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(to: path)
            #expect(RebuiltHeaderCopy.inferredPageSize(of: path.path) == nil)
        }
    }
}
