import CChaosVFS
import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

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

/// ``StorageFaultPolicy`` alone: which armed faults a call reaches, in which order,
/// and what their decisions add up to; no SQLite.
@Suite struct StorageFaultPolicyVFSTests {
    private func call(_ op: Int32, _ kind: Int32, _ path: String, offset: Int64 = 0, amount: Int32 = 0,
                      _ body: (StorageFaultPolicy.Call) -> Void) {
        path.withCString { body(StorageFaultPolicy.Call(op: op, fileKind: kind, path: $0, offset: offset, amount: amount)) }
    }

    private func armed(_ fault: some StorageFault, id: String? = nil, on file: StorageFile = .any, trigger: Trigger = Trigger(),
                       seed: UInt64 = 0, directory: String = "/") throws -> any StorageArming {
        var trigger = trigger
        trigger.on = file
        let armed = ArmedFault(id: id ?? type(of: fault).kind, fault: fault, trigger: trigger, seed: seed)
        return try StorageArmingOf(armed, fault: fault, directory: directory)
    }

    @Test func cFileKindsMapToStorageFilesAndTempFilesNeverCount() {
        #expect(StorageFaultPolicy.file(CHAOS_FILE_MAIN_DB) == .store)
        #expect(StorageFaultPolicy.file(CHAOS_FILE_MAIN_JOURNAL) == .journal)
        #expect(StorageFaultPolicy.file(CHAOS_FILE_WAL) == .wal)
        #expect(StorageFaultPolicy.file(CHAOS_FILE_OTHER) == nil)
        #expect(StorageFaultPolicy.operation(of: CHAOS_OP_FILESIZE) == nil, "file size is nobody's operation")
    }

    @Test func aFaultReachesOnlyTheFilesUnderItsDirectory() throws {
        var policy = StorageFaultPolicy()
        policy.arm(try armed(IOErrorFault(operation: "write"), directory: "/data/app/"))
        var codes: [Int32] = []
        for path in ["/data/app/s.db", "/data/application/s.db", "/elsewhere/s.db"] {
            call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, path) { codes.append(policy.decide($0).effect.resultCode) }
        }
        #expect(codes == [778, 0, 0], "a prefix is a directory")
    }

    @Test func diskFullIsStickyAndTimesMakesItTransient() throws {
        var sticky = StorageFaultPolicy()
        sticky.arm(try armed(DiskFullFault(afterBytes: 100)))
        var transient = StorageFaultPolicy()
        transient.arm(try armed(DiskFullFault(afterBytes: 100), trigger: Trigger(times: 1)))
        var stickyCodes: [Int32] = [], transientCodes: [Int32] = []
        for amount: Int32 in [60, 30, 20, 5, 5] {
            call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x.db", amount: amount) { c in
                stickyCodes.append(sticky.decide(c).effect.resultCode)
                transientCodes.append(transient.decide(c).effect.resultCode)
            }
        }
        #expect(stickyCodes == [0, 0, SQLITE_FULL, SQLITE_FULL, SQLITE_FULL], "90 fit; 110 does not; full stays full")
        #expect(transientCodes == [0, 0, SQLITE_FULL, 0, 0])
        #expect(sticky.firings.map(\.count) == [1, 2, 3])
    }

    @Test func theFirstFailingFaultWinsAndLaterFaultsNeverSeeTheCall() throws {
        var policy = StorageFaultPolicy()
        policy.arm(try armed(IOErrorFault(operation: "write"), on: .wal))
        policy.arm(try armed(DiskFullFault()))
        var codes: [Int32] = []
        call(CHAOS_OP_WRITE, CHAOS_FILE_WAL, "/x-wal") { codes.append(policy.decide($0).effect.resultCode) }
        call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x") { codes.append(policy.decide($0).effect.resultCode) }
        #expect(codes == [778, SQLITE_FULL])
        #expect(policy.firings.map(\.kind) == ["io-error", "disk-full"])
        #expect(policy.firings.map(\.count) == [1, 1], "disk-full's first hit was the store write")
    }

    @Test func twoFaultsOfOneKindKeepTheirOwnCounts() throws {
        var policy = StorageFaultPolicy()
        policy.arm(try armed(IOErrorFault(operation: "sync"), id: "step-3", on: .wal, trigger: Trigger(after: 1, times: 1)))
        policy.arm(try armed(IOErrorFault(operation: "sync"), id: "step-5", on: .store, trigger: Trigger(times: 1)))
        var codes: [Int32] = []
        for kind in [CHAOS_FILE_WAL, CHAOS_FILE_MAIN_DB, CHAOS_FILE_WAL, CHAOS_FILE_MAIN_DB] {
            call(CHAOS_OP_SYNC, kind, "/x") { codes.append(policy.decide($0).effect.resultCode) }
        }
        #expect(codes == [0, 1034, 1034, 0], "each fault counts its own syncs: the WAL's second, the store's first")
        #expect(policy.firings.map(\.id) == ["step-5", "step-3"])
        #expect(policy.progress.map(\.counter.fired) == [1, 1])
        #expect(policy.progress.map(\.counter.hits) == [2, 2])
    }

    @Test func slowIOJitterIsSeeded() throws {
        func delays(seed: UInt64) throws -> [Duration] {
            var policy = StorageFaultPolicy()
            policy.arm(try armed(SlowIOFault(latency: .milliseconds(5), jitter: .milliseconds(20)), seed: seed))
            var result: [Duration] = []
            for _ in 0..<20 { call(CHAOS_OP_READ, CHAOS_FILE_MAIN_DB, "/x") { result.append(policy.decide($0).effect.delay) } }
            return result
        }
        let a = try delays(seed: 3)
        #expect(a == (try delays(seed: 3)))
        #expect(a != (try delays(seed: 4)))
        #expect(a.allSatisfy { (.milliseconds(5) ... .milliseconds(25)).contains($0) })
        #expect(Set(a.map(\.wholeMilliseconds)).count > 5)
    }

    @Test func aFaultResumedFromItsProgressGoesOnWhereItStood() throws {
        var first = StorageFaultPolicy()
        first.arm(try armed(DiskFullFault(afterBytes: 100), trigger: Trigger(times: 2)))
        call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x", amount: 80) { _ = first.decide($0) }
        call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x", amount: 80) { _ = first.decide($0) }
        let progress = try #require(first.progress.first)
        #expect(progress.counter.fired == 1)
        let memory = try #require(progress.memory)
        #expect(memory.contains("\"full\":true"))
        // The next launch of the app is armed with it: still full, one firing left.
        var trigger = Trigger(times: 2)
        trigger.on = .any
        let resumed = ArmedFault(id: "disk-full", fault: DiskFullFault(afterBytes: 100), trigger: trigger, seed: 0)
            .resumed(at: progress)
        var second = StorageFaultPolicy()
        second.arm(try StorageArmingOf(resumed, fault: DiskFullFault(afterBytes: 100), directory: "/"))
        var codes: [Int32] = []
        for _ in 0..<2 { call(CHAOS_OP_WRITE, CHAOS_FILE_MAIN_DB, "/x", amount: 1) { codes.append(second.decide($0).effect.resultCode) } }
        #expect(codes == [SQLITE_FULL, 0], "the disk stayed full across the relaunch, and times: 2 counts both launches")
    }

    @Test func armedFaultsAndFiringsTravelAsJSONWithWireNames() throws {
        let armed = ArmedFault(id: "step-4", fault: DiskFullFault(afterBytes: 4096),
                               trigger: Trigger(after: 1, times: 2, probability: 0.5, on: .wal), seed: 99)
        let json = String(decoding: try JSONEncoder().encode(armed), as: UTF8.self)
        #expect(json.contains("\"disk-full\""))
        #expect(try JSONDecoder().decode(ArmedFault.self, from: Data(json.utf8)) == armed)
        let unknown = json.replacingOccurrences(of: "disk-full", with: "corrupt-file")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ArmedFault.self, from: Data(unknown.utf8)) }
        let firing = StorageFiring(id: "step-4", kind: "busy", operation: "lock", file: "store", path: "/d/s", count: 3, resultCode: 5)
        #expect(try JSONDecoder().decode(StorageFiring.self, from: JSONEncoder().encode(firing)) == firing)
        #expect(PowerLoss.Mode.allCases.map(\.rawValue) == ["drop", "keep", "torn"])
        #expect(PowerLoss.exitCode == 86)
    }
}
