import Foundation
import GRDB
import Testing
@testable import SystemUnderTest

extension SystemUnderTestSuite {
    /// Salvage reads the rows below a broken b-tree page from the leaf pages themselves.
    @Suite struct PageScanTests {
        /// A store of the app's schema with `count` favourites, and the root page of
        /// their table.
        static func store(_ count: Int64, in folder: URL) throws -> (path: String, root: Int, pageSize: Int, leaves: [Int]) {
            let path = folder.appendingPathComponent("damaged.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try AppSchema.migrator.migrate(queue)
            try queue.write { db in
                for id in 1...count { try Favorite.numbered(id).insert(db) }
            }
            let root = try queue.read { try Int.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'favorite'") } ?? 0
            let pageSize = try queue.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 0
            let leaves = try queue.read {
                try Int.fetchAll($0, sql: "SELECT pageno FROM dbstat WHERE name = 'favorite' AND pagetype = 'leaf' ORDER BY pageno")
            }
            try queue.close()
            return (path, root, pageSize, leaves)
        }

        static func salvaged(from path: String) throws -> (added: Int, ids: Set<Int64>) {
            let target = try DatabaseQueue()
            try AppSchema.migrator.migrate(target)
            let added = Salvage.copyReadableRows(from: path, into: target)
            let ids = try target.read { try Set(Int64.fetchAll($0, sql: "SELECT id FROM favorite")) }
            let names = try target.read { try String.fetchAll($0, sql: "SELECT name FROM favorite WHERE id IN (1, 20000)") }
            #expect(names.allSatisfy { $0.hasPrefix("Pokemon ") })
            return (added, ids)
        }

        /// The table's root zeroed: SQLite's walk of it stops at once (no row by key,
        /// either way), and every favourite is on a leaf page the scan reads.
        @Test func aZeroedRootGivesUpNoFavourite() throws {
            let folder = try TemporaryAppDirectory()
            let (path, root, pageSize, _) = try Self.store(20_000, in: folder.url)
            #expect(root > 1)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seek(toOffset: UInt64((root - 1) * pageSize))
            try handle.write(contentsOf: Data(count: pageSize))
            try handle.close()

            let (added, ids) = try Self.salvaged(from: path)
            #expect(added == 20_000)
            #expect(ids == Set(1...20_000))
        }

        /// The copy inside SQLite (``AttachedCopy``): a damaged table is read in ranges, a
        /// range the damage stops halved until its rows are read one by one; the staging
        /// store beside the damaged file is gone afterwards, and the damaged file untouched.
        @Test func theRangesAroundADamagedLeafKeepEveryOtherRowAndLeaveNoStagingStore() throws {
            let folder = try TemporaryAppDirectory()
            let (path, _, pageSize, leaves) = try Self.store(20_000, in: folder.url)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            let page = try #require(leaves.dropFirst(leaves.count / 3).first)
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data(count: pageSize))
            try handle.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let copy = try #require(AttachedCopy(damagedPath: path))
            let target = try DatabaseQueue()
            try AppSchema.migrator.migrate(target)
            let result = try #require(copy.copy("favorite", into: target))
            copy.remove()
            #expect(!result.complete)
            #expect(result.added > 19_800 && result.added < 20_000, "\(result.added)")
            #expect(try target.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM favorite") } == result.added)
            #expect(!FileManager.default.fileExists(atPath: path + ".salvage-staging"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }

        /// Leaf pages zeroed: their rows are gone, every other row comes back.
        @Test func zeroedLeavesLoseOnlyTheirOwnRows() throws {
            let folder = try TemporaryAppDirectory()
            let (path, _, pageSize, leaves) = try Self.store(20_000, in: folder.url)
            #expect(leaves.count > 100)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            // Two leaves in the middle of the table: its walk stops at the first.
            for page in leaves.dropFirst(leaves.count / 2).prefix(2) {
                try handle.seek(toOffset: UInt64((page - 1) * pageSize))
                try handle.write(contentsOf: Data(count: pageSize))
            }
            try handle.close()

            let (_, ids) = try Self.salvaged(from: path)
            #expect(ids.count < 20_000 && ids.count > 19_700, "\(ids.count)")
        }
    }
}
