import CChaosVFS
import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

extension ChaosVFSTests {
    /// ``StorageHook`` end to end: real SQLite connections (the raw C API, no
    /// GRDB) through the chaos VFS, each under its own temp directory, which every
    /// rule names so the parallel suites' databases are never touched. Nested in
    /// the serialized ``ChaosVFSTests`` because the hook is process-global.
    @Suite struct StorageFaultVFSTests {
        /// Every connection of a test is opened through the fault VFS, even when the test
        /// runs alone (not after another that registered it).
        init() throws {
            try SQLiteFaultVFS.register()
        }

        // MARK: - disk-full

        @Test func diskFullOnTheWALFailsEveryCommitUntilDisarmedWhileReadsWork() throws {
            let dir = try VFSTempDir()
            let db = try RawDB(path: dir.path + "/full.sqlite")
            #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
            try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
            try db.exec("INSERT INTO t(value) VALUES ('before')")

            try arm(DiskFullFault(), on: .wal, under: dir.path)
            defer { reset() }
            #expect(db.code("INSERT INTO t(value) VALUES ('lost 1')") == SQLITE_FULL)
            db.rollbackIfNeeded()
            #expect(db.code("INSERT INTO t(value) VALUES ('lost 2')") == SQLITE_FULL, "sticky: still full")
            db.rollbackIfNeeded()
            #expect(try db.int("SELECT count(*) FROM t") == 1, "reads work while the disk is full")

            let firings = StorageHook.firings()
            #expect(firings.count >= 2)
            #expect(firings.map(\.count) == Array(1...max(1, firings.count)), "every matching write fired, in order")
            #expect(firings.allSatisfy {
                $0.kind == "disk-full" && $0.operation == "write" && $0.file == "wal"
                    && $0.path == dir.path + "/full.sqlite-wal" && $0.resultCode == SQLITE_FULL
            })

            StorageHook.disarm(id: DiskFullFault.kind)
            #expect(chaos_vfs_has_hook() == 0, "nothing armed: the hook is gone")
            try db.exec("INSERT INTO t(value) VALUES ('after')")
            #expect(try db.string("SELECT group_concat(value, ',') FROM t") == "before,after")
            #expect(try db.string("PRAGMA integrity_check") == "ok")
        }

        @Test func diskFullAfterBytesLetsThatManyBytesThroughThenFails() throws {
            let dir = try VFSTempDir()
            let path = dir.path + "/budget.sqlite"
            let db = try RawDB(path: path)
            #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
            try db.exec("PRAGMA wal_autocheckpoint=0")  // the WAL only grows: bytes written = growth
            try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, blob BLOB)")
            let walBefore = fileSize(path + "-wal")
            let budget = 50_000, commitMax = 3 * (4096 + 24)

            try arm(DiskFullFault(afterBytes: budget), on: .wal, under: dir.path)
            defer { reset() }
            var committed = 0
            var failure: Int32 = SQLITE_OK
            for _ in 1...40 {
                let rc = db.code("INSERT INTO t(blob) VALUES (zeroblob(3000))")
                if rc != SQLITE_OK {
                    failure = rc
                    db.rollbackIfNeeded()
                    break
                }
                committed += 1
            }
            let grown = fileSize(path + "-wal") - walBefore
            #expect(failure == SQLITE_FULL)
            #expect(committed >= 2)
            #expect(grown <= budget, "never more than the budget: \(grown) bytes")
            #expect(grown > budget - commitMax, "the budget was used before failing: \(grown) bytes")
            #expect(StorageHook.firings().first?.count == 1)
            #expect(db.code("INSERT INTO t(blob) VALUES (zeroblob(3000))") == SQLITE_FULL, "sticky")
            db.rollbackIfNeeded()
            #expect(try db.int("SELECT count(*) FROM t") == committed, "reads still work")

            StorageHook.disarmAll()
            try db.exec("INSERT INTO t(blob) VALUES (zeroblob(3000))")
            #expect(try db.int("SELECT count(*) FROM t") == committed + 1)
            #expect(try db.string("PRAGMA integrity_check") == "ok")
        }

        // MARK: - io-error

        /// One io-error per operation: where it is armed, what makes SQLite call
        /// it, the extended code the statement must fail with.
        enum IOErrorCase: String, CaseIterable, Sendable {
            case readStore, writeStore, writeWAL, writeStoreAtCheckpoint, syncJournal, syncWAL,
                truncateWAL, openJournal, lockStore, deleteJournal

            var rule: (StorageCall.Operation, StorageFile) {
                switch self {
                case .readStore: (.read, .store)
                case .writeStore, .writeStoreAtCheckpoint: (.write, .store)
                case .writeWAL: (.write, .wal)
                case .syncJournal: (.sync, .journal)
                case .syncWAL: (.sync, .wal)
                case .truncateWAL: (.truncate, .wal)
                case .openJournal: (.open, .journal)
                case .lockStore: (.lock, .store)
                case .deleteJournal: (.delete, .journal)
                }
            }
            var wal: Bool { [.writeWAL, .writeStoreAtCheckpoint, .syncWAL, .truncateWAL].contains(self) }
            var expectedCode: Int32 {
                switch self {
                case .readStore: 266
                case .writeStore, .writeWAL, .writeStoreAtCheckpoint: 778
                case .syncJournal, .syncWAL: 1034
                case .truncateWAL: 1546
                case .openJournal: 14
                case .lockStore: 3850
                case .deleteJournal: 2570
                }
            }
        }

        @Test(arguments: IOErrorCase.allCases)
        func ioErrorFailsItsOperationOnItsFileWithItsCode(_ test: IOErrorCase) throws {
            let dir = try VFSTempDir()
            let path = dir.path + "/io.sqlite"
            do {
                let setup = try RawDB(path: path)
                if test.wal { #expect(try setup.string("PRAGMA journal_mode=WAL") == "wal") }
                try setup.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
                try setup.exec("INSERT INTO t(value) VALUES ('before')")
            }
            let db = try RawDB(path: path)
            try db.exec("PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=0")
            let (operation, file) = test.rule
            try arm(IOErrorFault(operation: operation.rawValue), on: file, under: dir.path)
            defer { reset() }

            let rc: Int32
            switch test {
            case .readStore, .lockStore:
                rc = db.code("SELECT count(*) FROM t")  // its first read: nothing is cached yet
            case .writeStoreAtCheckpoint:
                for i in 1...3 { try db.exec("INSERT INTO t(value) VALUES ('wal \(i)')") }
                #expect(StorageHook.firings().isEmpty, "in WAL mode commits do not write the store")
                rc = db.code("PRAGMA wal_checkpoint(FULL)")
            case .truncateWAL:
                try db.exec("INSERT INTO t(value) VALUES ('wal')")
                rc = db.code("PRAGMA wal_checkpoint(TRUNCATE)")
            default:
                rc = db.code("INSERT INTO t(value) VALUES ('failed')")
            }
            db.rollbackIfNeeded()
            #expect(rc == test.expectedCode, "\(test): got \(rc)")
            let firings = StorageHook.firings()
            #expect(firings.first?.count == 1)
            #expect(firings.first?.operation == operation.rawValue)
            #expect(firings.first?.file == file.rawValue, "fired on \(firings.first?.file ?? "nothing")")
            #expect(firings.first?.resultCode == test.expectedCode)

            StorageHook.disarmAll()
            try db.exec("INSERT INTO t(value) VALUES ('after')")
            if test == .writeStoreAtCheckpoint { try db.exec("PRAGMA wal_checkpoint(FULL)") }
            #expect(try db.int("SELECT count(*) FROM t WHERE value = 'after'") == 1)
            #expect(try db.string("PRAGMA integrity_check") == "ok")
        }

        // MARK: - the trigger

        @Test func afterAndTimesSayExactlyWhichHitsFire() throws {
            for (trigger, expected) in [(Trigger(after: 2, times: 1), [3]), (Trigger(times: 3), [1, 2, 3])] {
                let dir = try VFSTempDir()
                let db = try RawDB(path: dir.path + "/trigger.sqlite")
                #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
                try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
                try arm(IOErrorFault(operation: "sync"), on: .wal, under: dir.path, trigger: trigger)
                defer { reset() }
                // One WAL sync per autocommit INSERT (synchronous=FULL): hit n = insert n.
                try db.exec("PRAGMA synchronous=FULL")
                var codes: [Int32] = []
                for i in 1...6 {
                    codes.append(db.code("INSERT INTO t(value) VALUES ('\(i)')"))
                    db.rollbackIfNeeded()
                }
                #expect(StorageHook.firings().map(\.count) == expected, "\(trigger.label)")
                let failed = codes.indices.filter { codes[$0] != SQLITE_OK }.map { $0 + 1 }
                #expect(failed == expected, "inserts that failed, for \(trigger.label): \(codes)")
                #expect(codes.allSatisfy { $0 == SQLITE_OK || $0 == 1034 })
                #expect(try db.string("PRAGMA integrity_check") == "ok")
            }
        }

        @Test func aProbabilityWithAFixedSeedFiresAtTheSameHitsEveryRun() throws {
            func run(seed: UInt64) throws -> (counts: [Int], codes: [Int32]) {
                let dir = try VFSTempDir()
                let db = try RawDB(path: dir.path + "/p.sqlite")
                try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
                try arm(IOErrorFault(operation: "write"), under: dir.path, trigger: Trigger(probability: 0.3), seed: seed)
                defer { reset() }
                var codes: [Int32] = []
                for i in 1...30 {
                    codes.append(db.code("INSERT INTO t(value) VALUES ('\(i)')"))
                    db.rollbackIfNeeded()
                }
                #expect(try db.string("PRAGMA integrity_check") == "ok")
                return (StorageHook.firings().map(\.count), codes)
            }
            let first = try run(seed: 42), second = try run(seed: 42), other = try run(seed: 43)
            #expect(!first.counts.isEmpty)
            #expect(first.codes.contains(SQLITE_OK), "30% must not fail everything")
            #expect(first.counts == second.counts)
            #expect(first.codes == second.codes)
            #expect(first.counts != other.counts, "another seed, other hits")
        }

        // MARK: - busy

        @Test(arguments: ["wal", "delete"])
        func busyFailsWriteTransactionsWhileReadsWork(journalMode: String) throws {
            let dir = try VFSTempDir()
            let path = dir.path + "/busy.sqlite"
            let db = try RawDB(path: path)
            #expect(try db.string("PRAGMA journal_mode=\(journalMode)") == journalMode)
            try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
            try db.exec("INSERT INTO t(value) VALUES ('before')")
            let reader = try RawDB(path: path)

            // The journal cannot be busy; a WAL write lock only exists in WAL mode.
            try arm(BusyFault(), on: .wal, under: dir.path)
            defer { reset() }
            if journalMode == "delete" {
                try db.exec("INSERT INTO t(value) VALUES ('not wal')")
                #expect(StorageHook.firings().isEmpty)
                try db.exec("DELETE FROM t WHERE value = 'not wal'")
                StorageHook.disarmAll()
            }
            if journalMode == "wal" { StorageHook.disarmAll() }

            try arm(BusyFault(), on: .store, under: dir.path)
            #expect(db.code("BEGIN IMMEDIATE") == SQLITE_BUSY)
            db.rollbackIfNeeded()
            #expect(db.code("INSERT INTO t(value) VALUES ('busy')") == SQLITE_BUSY)
            db.rollbackIfNeeded()
            #expect(try db.int("SELECT count(*) FROM t") == 1, "the writer's own reads work")
            #expect(try reader.int("SELECT count(*) FROM t") == 1, "other readers work")
            let firings = StorageHook.firings()
            #expect(firings.count == 2)
            // In WAL mode the write lock is the -shm's slot 0; in a rollback journal, xLock.
            let lock = journalMode == "wal" ? "shm-lock" : "lock"
            #expect(firings.allSatisfy { $0.kind == "busy" && $0.operation == lock && $0.file == "store" && $0.resultCode == SQLITE_BUSY })

            StorageHook.disarmAll()
            try db.exec("INSERT INTO t(value) VALUES ('after')")
            #expect(try reader.int("SELECT count(*) FROM t") == 2)
            #expect(try db.string("PRAGMA integrity_check") == "ok")
        }

        // MARK: - slow-io

        @Test func slowIOMakesEachSyncTakeAtLeastItsLatency() throws {
            let dir = try VFSTempDir()
            let db = try RawDB(path: dir.path + "/slow.sqlite")
            #expect(try db.string("PRAGMA journal_mode=WAL") == "wal")
            try db.exec("PRAGMA synchronous=FULL")
            try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
            let latencyMs = 20
            try arm(SlowIOFault(latency: .milliseconds(latencyMs), jitter: .milliseconds(5)), under: dir.path, seed: 9)
            defer { reset() }

            let clock = ContinuousClock()
            let elapsed = try clock.measure {
                for i in 1...3 { try db.exec("INSERT INTO t(value) VALUES ('\(i)')") }
            }
            let firings = StorageHook.firings()
            let syncs = firings.filter { $0.operation == "sync" }.count
            #expect(syncs >= 3, "one WAL sync per commit")
            #expect(firings.contains { $0.operation == "write" }, "writes are slowed too")
            #expect(firings.allSatisfy { $0.resultCode == 0 && $0.kind == "slow-io" })
            #expect(elapsed >= .milliseconds(latencyMs * firings.count), "\(elapsed) for \(firings.count) slowed operations")
            #expect(elapsed < .seconds(30))
            #expect(try db.int("SELECT count(*) FROM t") == 3, "slow, not failed")
        }

        // MARK: - rules and the hook

        @Test func theHookIsInstalledOnlyWhileSomethingIsArmedAndRulesAreKeptInOrder() throws {
            let dir = try VFSTempDir()
            defer { reset() }
            #expect(chaos_vfs_has_hook() == 0)
            try arm(BusyFault(), under: dir.path, id: "first")
            try arm(IOErrorFault(operation: "read"), on: .store, under: dir.path + "/", id: "second")
            #expect(chaos_vfs_has_hook() == 1)
            #expect(StorageHook.armedIDs == ["first", "second"])
            try arm(BusyFault(), under: dir.path, id: "first")
            #expect(StorageHook.armedIDs == ["second", "first"], "arming an id again replaces it, at the end")
            StorageHook.disarm(id: "first")
            #expect(chaos_vfs_has_hook() == 1)
            StorageHook.disarm(id: "second")
            #expect(chaos_vfs_has_hook() == 0)
            #expect(throws: StorageHook.ArmError.self) {
                try StorageHook.arm(ArmedFault(id: "x", fault: ThrowFault(point: "a/b"), trigger: Trigger(), seed: 0), under: dir.path)
            }
            #expect(chaos_vfs_has_hook() == 0, "a rejected fault installs nothing")
        }

        @Test func aRuleLeavesDatabasesOutsideItsDirectoryAlone() throws {
            let mine = try VFSTempDir(), other = try VFSTempDir()
            let inside = try RawDB(path: mine.path + "/in.sqlite")
            let outside = try RawDB(path: other.path + "/out.sqlite")
            try inside.exec("CREATE TABLE t(x)")
            try outside.exec("CREATE TABLE t(x)")
            try arm(IOErrorFault(operation: "write"), under: mine.path)
            defer { reset() }
            #expect(inside.code("INSERT INTO t VALUES (1)") == 778)
            inside.rollbackIfNeeded()
            try outside.exec("INSERT INTO t VALUES (1)")
            #expect(StorageHook.firings().allSatisfy { $0.path.hasPrefix(mine.path + "/") })
        }

        // MARK: - helpers

        /// Arms `fault` for the databases under `directory`, as a worker arms a step's fault.
        private func arm(_ fault: any StorageFault, on file: StorageFile = .any, under directory: String,
                         trigger: Trigger = Trigger(), seed: UInt64 = 0, id: String? = nil) throws {
            var trigger = trigger
            trigger.on = file
            try SQLiteFaultVFS.register()
            let kind = type(of: fault).kind
            try StorageHook.arm(ArmedFault(id: id ?? kind, fault: fault, trigger: trigger, seed: seed), under: directory)
        }

        private func reset() {
            StorageHook.disarmAll()
            StorageHook.resetFirings()
        }
    }
}
