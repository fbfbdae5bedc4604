import Testing
@testable import Chaos
@testable import ChaosTarget

/// busy fails the requests for the write lock with SQLITE_BUSY, as another process
/// holding it would; readers take no write lock and go on.
@Suite("Fault: busy")
struct BusyFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(BusyFault.example)
        #expect(step.fault == AnyFault(BusyFault()))
        #expect(step.trigger == Trigger(times: 3))
        #expect(step.label == "fault busy 3 times")
    }

    @Test func countsWriteLocksOnly() {
        let busy = BusyFault()
        #expect(!hits(busy, Self.call(.lock, amount: 1)), "SHARED: readers go on")
        #expect(hits(busy, Self.call(.lock, amount: StorageCall.reservedLockLevel)))
        #expect(hits(busy, Self.call(.shmLock, offset: 0, amount: 1)), "the WAL write lock")
        #expect(!hits(busy, Self.call(.shmLock, offset: 3, amount: 1)), "a read mark")
        #expect(!hits(busy, on: .wal, Self.call(.lock, amount: 4)), "on: wal is the WAL write lock only")
        #expect(hits(busy, on: .wal, Self.call(.shmLock, offset: 0, amount: 1)))
        #expect(effect(busy, Self.call(.lock, amount: 4)) == .fail(5))
    }

    /// `on: store` or `any` means both write locks; no other call is ever one.
    @Test func onStoreOrAnyMeansBothLocks() {
        let busy = BusyFault()
        #expect(busy.operations == [.lock, .shmLock])
        for on in [StorageFile.store, .any] {
            #expect(hits(busy, on: on, Self.call(.lock, amount: 4)), "\(on)")
            #expect(hits(busy, on: on, Self.call(.shmLock, offset: 0, amount: 1)), "\(on)")
        }
        #expect(![StorageCall.Operation.read, .write, .sync, .open].contains { hits(busy, Self.call($0, amount: 4)) })
        #expect(effect(busy, Self.call(.shmLock)) == .fail(StorageEffect.Code.busy))
        #expect(StorageSeam.libc.operations.isDisjoint(with: busy.operations), "a target without SQLite has no lock to make busy")
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: busy\n  on: journal", at: .value("on"), saying: "not the journal")
        ScenarioFixtures.expectRefused("- fault: busy\n  timeout: 5s", at: .key("timeout"), saying: "unknown key 'timeout'")
    }
}
