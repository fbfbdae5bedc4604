import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// io-error fails one kind of file operation with SQLite's extended code for it (the
/// fault VFS) or an errno (the libc seam): decided per call, without SQLite or a seam.
@Suite("Fault: io-error")
struct IOErrorFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(IOErrorFault.example)
        #expect(step.fault == AnyFault(IOErrorFault(operation: "read")))
        #expect(step.trigger == Trigger(on: .store))
        #expect(step.label == "fault io-error read on store")
        let errno = try ScenarioFixtures.faultStep("- fault: io-error\n  op: sync\n  errno: EROFS\n  times: 1")
        #expect(errno.fault == AnyFault(IOErrorFault(operation: "sync", errno: .erofs)))
        #expect(errno.label == "fault io-error sync (EROFS) once")
    }

    @Test func failsItsOperationWithItsExtendedCode() {
        let expected: [StorageCall.Operation: Int32] = [
            .read: 266, .write: 778, .sync: 1034, .truncate: 1546, .open: 14, .lock: 3850, .delete: 2570,
        ]
        for (operation, code) in expected {
            let fault = IOErrorFault(operation: operation.rawValue)
            #expect(hits(fault, Self.call(operation)), "\(operation)")
            #expect(!hits(fault, Self.call(operation == .read ? .write : .read)), "\(operation) only")
            #expect(effect(fault, Self.call(operation)) == .fail(code), "\(operation)")
        }
        let any = IOErrorFault(operation: IOErrorFault.anyOperation)
        #expect([StorageCall.Operation.read, .write, .sync, .truncate].allSatisfy { hits(any, Self.call($0)) })
        #expect(![StorageCall.Operation.open, .lock, .delete, .shmLock].contains { hits(any, Self.call($0)) },
                "op: any is the io sweep's I/O operation: read, write, sync, truncate")
        #expect(effect(any, Self.call(.sync)) == .fail(1034), "each with its own code")
        #expect(any.operations == [.read, .write, .sync, .truncate])
    }

    /// `op: lock` is every lock request: the database's, and in WAL mode the WAL index's.
    @Test func lockCountsTheDatabaseLockAndTheWALIndexLock() {
        let lock = IOErrorFault(operation: "lock")
        #expect(lock.operations == [.lock, .shmLock])
        #expect(hits(lock, Self.call(.shmLock, offset: 3, amount: 1)))
        #expect(effect(lock, Self.call(.shmLock)) == .fail(5130), "SQLITE_IOERR_SHMLOCK")
        #expect(effect(lock, Self.call(.lock, amount: 1)) == .fail(3850), "SQLITE_IOERR_LOCK")
        #expect(!hits(IOErrorFault(operation: "write"), Self.call(.shmLock)), "only op: lock counts the WAL index's locks")
        #expect(StorageSeam.libc.operations.isDisjoint(with: lock.operations), "the libc seam sees no locks")
    }

    /// `op: rename` is a libc operation: SQLite renames nothing, so the VFS never sees one.
    @Test func renameIsALibcOperation() {
        let rename = IOErrorFault(operation: "rename")
        #expect(rename.operations == [.rename])
        #expect(StorageSeam.libc.operations.contains(.rename))
        #expect(!StorageSeam.vfs.operations.contains(.rename))
        #expect(hits(rename, Self.call(.rename)))
        #expect(effect(rename, Self.call(.rename)).libcAnswer == EIO, "EIO unless errno: says otherwise")
        #expect(effect(IOErrorFault(operation: "rename", errno: .erofs), Self.call(.rename)).libcAnswer == EROFS)
    }

    /// In the VFS an errno of a full disk on a write is SQLITE_FULL, as SQLite's unix VFS
    /// reads it; on any other operation the operation's own code stands.
    @Test func aFullDiskErrnoOnAWriteIsSQLiteFull() {
        #expect(effect(IOErrorFault(operation: "write", errno: .enospc), Self.call(.write)) == .fail(13, errno: .enospc))
        #expect(effect(IOErrorFault(operation: "truncate", errno: .edquot), Self.call(.truncate, amount: 1)) == .fail(13, errno: .edquot))
        #expect(effect(IOErrorFault(operation: "truncate", errno: .edquot), Self.call(.truncate, amount: 0)) == .fail(1546, errno: .edquot))
        #expect(effect(IOErrorFault(operation: "read", errno: .enospc), Self.call(.read)) == .fail(266, errno: .enospc))
        #expect(effect(IOErrorFault(operation: "write", errno: .erofs), Self.call(.write)) == .fail(778, errno: .erofs))
    }

    /// A file still downloading: its open fails with EDEADLK in libc, SQLITE_CANTOPEN in the VFS.
    @Test func anOpenOfAFileStillDownloadingFailsWithEDEADLK() throws {
        let step = try ScenarioFixtures.faultStep("- fault: io-error\n  op: open\n  errno: EDEADLK")
        #expect(step.fault == AnyFault(IOErrorFault(operation: "open", errno: .edeadlk)))
        let opened = effect(IOErrorFault(operation: "open", errno: .edeadlk), Self.call(.open))
        #expect(opened.libcAnswer == EDEADLK && opened.resultCode == 14)
    }

    @Test func onLeavesTheOtherFilesAlone() {
        let fault = IOErrorFault(operation: "sync")
        #expect(hits(fault, on: .store, Self.call(.sync, .store)))
        #expect(!hits(fault, on: .store, Self.call(.sync, .wal)))
        #expect(!hits(fault, on: .journal, Self.call(.sync, .store)))
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: io-error\n  on: store", at: .step, saying: "fault 'io-error' needs 'op:'")
        let fsync = ScenarioFixtures.expectRefused("- fault: io-error\n  op: fsync", at: .value("op"), saying: "unknown 'op' value 'fsync'")
        #expect(fsync?.suggestion == "sync")
        ScenarioFixtures.expectRefused("- fault: io-error\n  op: read\n  errno: EPERM", at: .value("errno"), saying: "unknown 'errno' value 'EPERM'")
        ScenarioFixtures.expectRefused("- fault: io-error\n  op: read\n  on: disk", at: .value("on"), saying: "unknown 'on' value 'disk'")
    }
}
