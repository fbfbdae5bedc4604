import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// memory-pressure fails SQLite's opens, reads and writes as a failed allocation does:
/// SQLITE_NOMEM for an open, SQLITE_IOERR_NOMEM (reported to the app as SQLITE_NOMEM)
/// for a read or a write, ENOMEM in libc.
@Suite("Fault: memory-pressure")
struct MemoryPressureFaultTests: StorageKindChecks {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(MemoryPressureFault.example)
        #expect(step.fault == AnyFault(MemoryPressureFault()))
        #expect(step.trigger == Trigger(times: 3))
        #expect(step.label == "fault memory-pressure 3 times")
    }

    @Test func failsOpensReadsAndWritesAsAFailedAllocation() {
        let fault = MemoryPressureFault()
        #expect(effect(fault, Self.call(.open)) == .fail(7, errno: .enomem), "SQLITE_NOMEM")
        #expect(effect(fault, Self.call(.read)) == .fail(3082, errno: .enomem), "SQLITE_IOERR_NOMEM")
        #expect(effect(fault, Self.call(.write)) == .fail(3082, errno: .enomem))
        #expect(effect(fault, Self.call(.read)).libcAnswer == ENOMEM)
        for operation in [StorageCall.Operation.sync, .truncate, .lock, .shmLock, .delete, .rename] {
            #expect(!hits(fault, Self.call(operation)), "\(operation): no allocation to fail")
        }
        #expect(hits(fault, on: .wal, Self.call(.read, .wal)) && !hits(fault, on: .store, Self.call(.read, .wal)))
    }

    @Test func takesNoKeysOfItsOwn() {
        ScenarioFixtures.expectRefused("- fault: memory-pressure\n  limit: 1MB", at: .key("limit"),
                                       saying: "unknown key 'limit' in fault 'memory-pressure'")
    }
}
