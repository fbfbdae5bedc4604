import CChaosVFS
import CSQLite
import Foundation
import Testing

@testable import Chaos

extension ChaosVFSTests {
    /// The crash simulator's bookkeeping, without crashing: undo logging, what
    /// tracked files advertise while tearing, and the scope. Nested in the
    /// serialized ``ChaosVFSTests`` because power-loss state is process-global;
    /// scoped to its own temp directory so parallel suites are not tracked.
    @Suite struct PowerLossInProcessVFSTests {

        @Test func syncsClearTheUndoLogAndClosingDoesNot() throws {
            let dir = try VFSTempDir()
            let path = dir.path + "/log.sqlite"
            PowerLoss.enable(torn: false, under: dir.path)
            defer { PowerLoss.disable() }
            #expect(PowerLoss.stats() == (0, 0, 0))

            do {
                let db = try RawDB(path: path)
                try db.exec("PRAGMA synchronous=OFF; CREATE TABLE t(x); INSERT INTO t VALUES (1)")
                let unsynced = PowerLoss.stats()
                #expect(unsynced.writes > 0)
                #expect(unsynced.syncs == 0)
                #expect(unsynced.pending > 0, "writes without a sync are pending")
            }
            #expect(PowerLoss.stats().pending > 0, "closing is not durable")

            let db = try RawDB(path: path)
            try db.exec("PRAGMA synchronous=FULL; INSERT INTO t VALUES (2)")
            let synced = PowerLoss.stats()
            #expect(synced.syncs > 0)
            #expect(synced.pending == 0, "DELETE mode + FULL: journal and store synced, journal deleted")

            PowerLoss.disable()
            try db.exec("PRAGMA synchronous=OFF; INSERT INTO t VALUES (3)")
            #expect(PowerLoss.stats().pending == 0, "disabled: nothing logged")
        }

        @Test func tearingAdvertisesTheSimulatedSectorAndNoPowersafeOverwriteOnlyInScope() throws {
            let mine = try VFSTempDir(), other = try VFSTempDir()
            try SQLiteFaultVFS.register()
            let inside = try RawDB(path: mine.path + "/torn.sqlite")
            let outside = try RawDB(path: other.path + "/whole.sqlite")
            let insideFile = try #require(inside.mainFile()), outsideFile = try #require(outside.mainFile())
            func sector(_ f: UnsafeMutablePointer<sqlite3_file>) -> Int32 { f.pointee.pMethods.pointee.xSectorSize(f) }
            func powersafe(_ f: UnsafeMutablePointer<sqlite3_file>) -> Bool {
                f.pointee.pMethods.pointee.xDeviceCharacteristics(f) & SQLITE_IOCAP_POWERSAFE_OVERWRITE != 0
            }
            let realSector = sector(insideFile)
            #expect(realSector == 4096 && powersafe(insideFile), "what unix says here")

            PowerLoss.enable(torn: true, sectorSize: 1024, under: mine.path)
            defer { PowerLoss.disable() }
            #expect(sector(insideFile) == 1024)
            #expect(!powersafe(insideFile))
            #expect(sector(outsideFile) == realSector && powersafe(outsideFile), "out of scope: untouched")

            PowerLoss.enable(torn: false, under: mine.path)
            #expect(sector(insideFile) == realSector && powersafe(insideFile), "not tearing: the truth")
        }

        @Test func triggersArmedInProcessCountTrackedOperationsOnly() throws {
            let dir = try VFSTempDir()
            PowerLoss.enable(torn: false, under: dir.path + "/sub")
            defer { PowerLoss.disable() }
            let db = try RawDB(path: dir.path + "/not-in-scope.sqlite")
            PowerLoss.arm(atSync: 1, afterWrites: 1, mode: .drop, seed: 1)  // would _exit if these counted
            try db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            #expect(PowerLoss.stats() == (0, 0, 0))
            PowerLoss.disarm()
        }
    }
}

/// ``StorageFaultPolicy`` alone: matching, codes, validation; no SQLite.
@Suite struct StorageFaultPolicyVFSTests {
    private func call(_ op: Int32, _ kind: Int32, _ path: String, offset: Int64 = 0, amount: Int32 = 0,
                      _ body: (StorageFaultPolicy.Call) -> Void) {
        path.withCString { body(StorageFaultPolicy.Call(op: op, fileKind: kind, path: $0, offset: offset, amount: amount)) }
    }

    @Test func storageFilesMapToTheirCFileKinds() {
        #expect(StorageFaultPolicy.fileMask(.store) == CHAOS_FILE_MAIN_DB)
        #expect(StorageFaultPolicy.fileMask(.journal) == CHAOS_FILE_MAIN_JOURNAL)
        #expect(StorageFaultPolicy.fileMask(.wal) == CHAOS_FILE_WAL)
        #expect(StorageFaultPolicy.fileMask(.any) == CHAOS_FILE_MAIN_DB | CHAOS_FILE_MAIN_JOURNAL | CHAOS_FILE_WAL)
        #expect(StorageFaultPolicy.fileMask(.any) & CHAOS_FILE_OTHER == 0, "temp files never count")
    }

    @Test func ioErrorCodesAreSQLitesExtendedCodes() {
        let codes = StorageFaultRule.Operation.allCases.map { StorageFaultPolicy.ioErrorCode($0) }
        #expect(codes == [266, 778, 1034, 1546, 14, 3850, 2570])
    }

    @Test func matchingFollowsKindOperationFileAndDirectory() {
        let dir = "/data/app/"
        func matches(_ rule: StorageFaultRule, _ op: Int32, _ kind: Int32, _ path: String = "/data/app/s.db",
                     offset: Int64 = 0, amount: Int32 = 0) -> StorageFaultRule.Operation? {
            var result: StorageFaultRule.Operation?
            call(op, kind, path, offset: offset, amount: amount) { result = StorageFaultPolicy.match($0, .init(rule)) }
            return result
        }
        let full = StorageFaultRule(kind: .diskFull, directory: dir)
        #expect(matches(full, CHAOS_OP_WRITE, CHAOS_FILE_WAL) == .write)
        #expect(matches(full, CHAOS_OP_WRITE, CHAOS_FILE_OTHER) == nil)
        #expect(matches(full, CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/data/application/s.db") == nil, "a prefix is a directory")
        #expect(matches(full, CHAOS_OP_TRUNCATE, CHAOS_FILE_MAIN_DB, amount: 1) == .truncate, "growing")
        #expect(matches(full, CHAOS_OP_TRUNCATE, CHAOS_FILE_MAIN_DB, amount: 0) == nil, "shrinking frees space")
        #expect(matches(full, CHAOS_OP_READ, CHAOS_FILE_MAIN_DB) == nil)

        let busy = StorageFaultRule(kind: .busy, on: .store, directory: dir)
        #expect(matches(busy, CHAOS_OP_LOCK, CHAOS_FILE_MAIN_DB, amount: SQLITE_LOCK_SHARED) == nil, "readers go on")
        #expect(matches(busy, CHAOS_OP_LOCK, CHAOS_FILE_MAIN_DB, amount: SQLITE_LOCK_RESERVED) == .lock)
        #expect(matches(busy, CHAOS_OP_SHM_LOCK, CHAOS_FILE_MAIN_DB, offset: 0, amount: 1) == .lock, "the WAL write lock")
        #expect(matches(busy, CHAOS_OP_SHM_LOCK, CHAOS_FILE_MAIN_DB, offset: 3, amount: 1) == nil, "a read mark")
        let busyWAL = StorageFaultRule(kind: .busy, on: .wal, directory: dir)
        #expect(matches(busyWAL, CHAOS_OP_LOCK, CHAOS_FILE_MAIN_DB, amount: SQLITE_LOCK_RESERVED) == nil)
        #expect(matches(busyWAL, CHAOS_OP_SHM_LOCK, CHAOS_FILE_MAIN_DB, offset: 0, amount: 1) == .lock)

        let slow = StorageFaultRule(kind: .slowIO, on: .journal, latencyMs: 1)
        #expect(matches(slow, CHAOS_OP_SYNC, CHAOS_FILE_MAIN_JOURNAL, "/anywhere/x-journal") == .sync)
        #expect(matches(slow, CHAOS_OP_SYNC, CHAOS_FILE_MAIN_DB) == nil)
        #expect(matches(slow, CHAOS_OP_OPEN, CHAOS_FILE_MAIN_JOURNAL) == nil, "nil operation: read, write, sync")
    }

    @Test func diskFullIsStickyAndTimesMakesItTransient() {
        var sticky = StorageFaultPolicy()
        sticky.arm(StorageFaultRule(kind: .diskFull, afterBytes: 100))
        var transient = StorageFaultPolicy()
        transient.arm(StorageFaultRule(kind: .diskFull, afterBytes: 100, trigger: Trigger(times: 1)))
        var stickyCodes: [Int32] = [], transientCodes: [Int32] = []
        for amount: Int32 in [60, 30, 20, 5, 5] {
            call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x.db", amount: amount) { c in
                stickyCodes.append(sticky.decide(c).resultCode)
                transientCodes.append(transient.decide(c).resultCode)
            }
        }
        #expect(stickyCodes == [0, 0, SQLITE_FULL, SQLITE_FULL, SQLITE_FULL], "90 fit; 110 does not; full stays full")
        #expect(transientCodes == [0, 0, SQLITE_FULL, 0, 0])
        #expect(sticky.firings.map(\.count) == [1, 2, 3])
    }

    @Test func theFirstFailingRuleWinsAndLaterRulesNeverSeeTheCall() {
        var policy = StorageFaultPolicy()
        policy.arm(StorageFaultRule(kind: .ioError, operation: .write, on: .wal))
        policy.arm(StorageFaultRule(kind: .diskFull))
        var codes: [Int32] = []
        call(CHAOS_OP_WRITE, CHAOS_FILE_WAL, "/x-wal") { codes.append(policy.decide($0).resultCode) }
        call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x") { codes.append(policy.decide($0).resultCode) }
        #expect(codes == [778, SQLITE_FULL])
        #expect(policy.firings.map(\.kind) == ["io-error", "disk-full"])
        #expect(policy.firings.map(\.count) == [1, 1], "disk-full's first hit was the store write")
    }

    @Test func slowIOJitterIsSeeded() {
        func delays(seed: UInt64) -> [UInt64] {
            var policy = StorageFaultPolicy()
            policy.arm(StorageFaultRule(kind: .slowIO, latencyMs: 5, jitterMs: 20, seed: seed))
            var result: [UInt64] = []
            for _ in 0..<20 { call(CHAOS_OP_READ, CHAOS_FILE_MAIN_DB, "/x") { result.append(policy.decide($0).delayNanoseconds) } }
            return result
        }
        let a = delays(seed: 3)
        #expect(a == delays(seed: 3))
        #expect(a != delays(seed: 4))
        #expect(a.allSatisfy { (5_000_000...25_000_000).contains($0) })
        #expect(Set(a).count > 5)
    }

    @Test func rulesThatMakeNoSenseAreRejectedWithAReason() {
        let bad: [StorageFaultRule] = [
            StorageFaultRule(kind: .busy, operation: .write),
            StorageFaultRule(kind: .busy, on: .journal),
            StorageFaultRule(kind: .diskFull, operation: .read),
            StorageFaultRule(kind: .diskFull, afterBytes: -1),
            StorageFaultRule(kind: .slowIO),
            StorageFaultRule(kind: .slowIO, latencyMs: 120_000),
            StorageFaultRule(kind: .ioError, operation: .read, afterBytes: 10),
            StorageFaultRule(kind: .diskFull, latencyMs: 10),
        ]
        for rule in bad {
            #expect(StorageFaultPolicy.problem(with: rule) != nil, "\(rule)")
            #expect(throws: StorageFaults.RuleError.self) { try StorageFaults.arm(rule) }
        }
        #expect(StorageFaultPolicy.problem(with: StorageFaultRule(kind: .diskFull, afterBytes: 0)) == nil)
        #expect(StorageFaultPolicy.problem(with: StorageFaultRule(kind: .slowIO, jitterMs: 3)) == nil)
    }

    @Test func rulesAndFiringsTravelAsJSONWithWireNames() throws {
        let rule = StorageFaultRule(
            kind: .diskFull, operation: .write, on: .wal, directory: "/d", afterBytes: 4096,
            trigger: Trigger(after: 1, times: 2, probability: 0.5), seed: 99)
        let json = String(decoding: try JSONEncoder().encode(rule), as: UTF8.self)
        #expect(json.contains("\"disk-full\""))
        #expect(try JSONDecoder().decode(StorageFaultRule.self, from: Data(json.utf8)) == rule)
        let minimal = #"{"kind":"busy","on":"store","trigger":{"after":0},"seed":1}"#
        #expect(try JSONDecoder().decode(StorageFaultRule.self, from: Data(minimal.utf8)) == StorageFaultRule(kind: .busy, on: .store, seed: 1))
        let firing = StorageFiring(kind: "busy", operation: "lock", file: "store", path: "/d/s", count: 3, resultCode: 5)
        #expect(try JSONDecoder().decode(StorageFiring.self, from: JSONEncoder().encode(firing)) == firing)
        #expect(PowerLoss.Mode.allCases.map(\.rawValue) == ["drop", "keep", "torn"])
        #expect(PowerLoss.exitCode == 86)
    }

    @Test func theCrashSimulatorDrawsFromTheSameSplitMix64AsChaos() {
        for seed: UInt64 in [0, 1, 42, 0xDEAD_BEEF_CAFE_F00D] {
            var swift = SplitMix64(seed: seed)
            var state = seed
            let c = (0..<5).map { _ in chaos_vfs_splitmix64_next(&state) }
            #expect(c == (0..<5).map { _ in swift.next() })
        }
    }
}
