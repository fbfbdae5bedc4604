import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

extension ChaosVFSTests {
    /// memory-pressure through the fault VFS: the app's statement fails with SQLITE_NOMEM
    /// (SQLite turns the VFS's SQLITE_IOERR_NOMEM into it), as many times as the trigger
    /// says, and the next one works with nothing lost.
    @Suite struct MemoryPressureVFSTests {
        init() throws {
            try SQLiteFaultVFS.register()
        }

        @Test func aStatementFailsWithNoMemoryThenWorks() throws {
            let dir = try VFSTempDir()
            let db = try RawDB(path: dir.path + "/memory.sqlite")
            try db.exec("CREATE TABLE t(value TEXT)")
            try db.exec("INSERT INTO t VALUES ('kept')")
            try StorageHook.arm(ArmedFault(id: "memory", fault: MemoryPressureFault(), trigger: Trigger(times: 1), seed: 1),
                                under: dir.path)
            defer {
                StorageHook.disarmAll()
                StorageHook.resetFirings()
            }
            let first = db.code("SELECT count(*) FROM t") & 0xff
            #expect(first == 7, "SQLITE_NOMEM, saw \(first)")
            db.rollbackIfNeeded()
            #expect(try db.string("SELECT group_concat(value) FROM t") == "kept", "once: the next statement works")
            #expect(StorageHook.firings().map(\.operation) == ["read"])
        }
    }
}
