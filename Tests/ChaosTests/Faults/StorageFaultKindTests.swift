import Testing
@testable import Chaos
@testable import ChaosTarget

/// The storage fault kinds' own decisions, without SQLite or the VFS: which calls are
/// their operations, and what a firing does to the call.
@Suite("Fault: storage kinds decide")
struct StorageFaultKindTests {
    static func call(_ operation: StorageCall.Operation, _ file: StorageFile = .store, offset: Int64 = 0,
                     amount: Int32 = 0) -> StorageCall {
        StorageCall(operation: operation, file: file, path: "/data/app.sqlite", offset: offset, amount: amount)
    }

    func hits(_ fault: some StorageFault, on: StorageFile = .any, _ call: StorageCall) -> Bool {
        var memory = fault.initialMemory
        return fault.isHit(call, on: on, memory: &memory)
    }

    func effect(_ fault: some StorageFault, _ call: StorageCall) -> StorageEffect {
        var memory = fault.initialMemory
        var rng = SplitMix64(seed: 1)
        return fault.effect(of: call, memory: &memory, rng: &rng)
    }

    @Test func diskFullCountsWritesAndGrowthOnly() {
        let full = DiskFullFault()
        #expect(hits(full, Self.call(.write, .wal)))
        #expect(hits(full, Self.call(.truncate, amount: 1)), "a truncate that grows the file")
        #expect(!hits(full, Self.call(.truncate, amount: 0)), "shrinking frees space")
        #expect(!hits(full, Self.call(.read)))
        #expect(!hits(full, on: .wal, Self.call(.write, .store)), "on: wal leaves the store alone")
        #expect(effect(full, Self.call(.write)) == .fail(13))
    }

    @Test func ioErrorFailsItsOperationWithItsExtendedCode() {
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
    }

    @Test func busyCountsWriteLocksOnly() {
        let busy = BusyFault()
        #expect(!hits(busy, Self.call(.lock, amount: 1)), "SHARED: readers go on")
        #expect(hits(busy, Self.call(.lock, amount: StorageCall.reservedLockLevel)))
        #expect(hits(busy, Self.call(.shmLock, offset: 0, amount: 1)), "the WAL write lock")
        #expect(!hits(busy, Self.call(.shmLock, offset: 3, amount: 1)), "a read mark")
        #expect(!hits(busy, on: .wal, Self.call(.lock, amount: 4)), "on: wal is the WAL write lock only")
        #expect(hits(busy, on: .wal, Self.call(.shmLock, offset: 0, amount: 1)))
        #expect(effect(busy, Self.call(.lock, amount: 4)) == .fail(5))
        #expect(ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - fault: busy\n    on: journal"))?
            .message.contains("not the journal") == true)
    }

    @Test func slowIODelaysReadsWritesAndSyncsBySeededAmounts() {
        let slow = SlowIOFault(latency: .milliseconds(10), jitter: .milliseconds(5))
        #expect([StorageCall.Operation.read, .write, .sync].allSatisfy { hits(slow, Self.call($0)) })
        #expect(!hits(slow, Self.call(.open)))
        let delay = effect(slow, Self.call(.read))
        #expect(delay.resultCode == 0)
        #expect((.milliseconds(10) ... .milliseconds(15)).contains(delay.delay))
        #expect(ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - fault: slow-io\n    latency: 0ms"))?
            .message.contains("would change nothing") == true)
    }

    @Test func diskFullRemembersTheBytesWrittenAndStaysFull() {
        let full = DiskFullFault(afterBytes: 100)
        var memory = full.initialMemory
        #expect(!full.isHit(Self.call(.write, amount: 60), on: .any, memory: &memory))
        #expect(!full.isHit(Self.call(.write, amount: 40), on: .any, memory: &memory), "exactly the budget still fits")
        #expect(full.isHit(Self.call(.write, amount: 1), on: .any, memory: &memory))
        var rng = SplitMix64(seed: 0)
        _ = full.effect(of: Self.call(.write, amount: 1), memory: &memory, rng: &rng)
        #expect(memory.full)
        #expect(full.isHit(Self.call(.write, amount: 0), on: .any, memory: &memory), "full stays full")
    }
}
