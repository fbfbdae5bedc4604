import CSQLite
import Foundation
import Testing

@testable import Chaos
@testable import ChaosTarget

extension ChaosVFSTests {
    /// device-locked through the fault VFS, on real SQLite connections: a connection the
    /// app already holds can no longer read its store, a new one cannot open it, and both
    /// work again once the device unlocks. Nested in the serialized ``ChaosVFSTests``:
    /// the hook is process-global.
    @Suite struct DeviceLockedVFSTests {
        init() throws {
            try SQLiteFaultVFS.register()
        }

        @Test func aLockedDeviceShutsOpenAndNewConnectionsAlikeUntilUnlocked() throws {
            let dir = try VFSTempDir()
            let path = dir.path + "/locked.sqlite"
            let held = try RawDB(path: path)
            try held.exec("CREATE TABLE t(value TEXT)")
            try held.exec("INSERT INTO t VALUES ('kept')")

            try StorageHook.arm(ArmedFault(id: "locked", fault: DeviceLockedFault(), trigger: Trigger(), seed: 1), under: dir.path)
            defer {
                StorageHook.disarmAll()
                StorageHook.resetFirings()
            }
            #expect(held.code("SELECT count(*) FROM t") == 266, "an open connection's read: SQLITE_IOERR_READ")
            #expect(held.code("INSERT INTO t VALUES ('while locked')") != 0, "and its write fails")
            held.rollbackIfNeeded()
            #expect(throws: VFSTestError.self, "a new connection cannot open the store") { try RawDB(path: path) }
            let operations = Set(StorageHook.firings().map(\.operation))
            #expect(operations.contains("open") && operations.contains("read"), "\(operations)")

            StorageHook.disarm(id: "locked")
            #expect(try held.string("SELECT group_concat(value) FROM t") == "kept", "unlocked: nothing written, nothing lost")
            #expect(try RawDB(path: path).string("PRAGMA integrity_check") == "ok")
        }
    }
}
