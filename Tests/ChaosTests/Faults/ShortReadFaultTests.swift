import Testing
@testable import Chaos
@testable import ChaosTarget

/// short-read makes reads come back short: SQLITE_IOERR_SHORT_READ in the VFS (which
/// zero-fills the buffer), a short read in the libc seam.
@Suite("Fault: short-read")
struct ShortReadFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ShortReadFault.example)
        #expect(step.fault == AnyFault(ShortReadFault()))
        #expect(step.trigger == Trigger(times: 1, on: .store))
        #expect(step.label == "fault short-read once, on store")
    }

    @Test func readsComeBackShort() {
        let fault = ShortReadFault()
        var memory = NoMemory()
        var rng = SplitMix64(seed: 1)
        let read = StorageCall(operation: .read, file: .wal, path: "/d/app.sqlite-wal", offset: 4096, amount: 4096)
        #expect(fault.isHit(read, on: .any, memory: &memory))
        #expect(!fault.isHit(read, on: .store, memory: &memory), "on: store leaves the WAL alone")
        #expect(!fault.isHit(StorageCall(operation: .write, file: .store, path: "/d/app.sqlite"), on: .any, memory: &memory))
        #expect(fault.effect(of: read, memory: &memory, rng: &rng) == .fail(522), "SQLITE_IOERR_SHORT_READ")
    }

    /// Reads are its only operations; the libc seam answers a short read (its -1), not an errno.
    @Test func onlyReadsAndTheLibcSeamReadsShort() {
        let fault = ShortReadFault()
        #expect(fault.operations == [.read])
        var memory = NoMemory()
        var rng = SplitMix64(seed: 1)
        let read = StorageCall(operation: .read, file: .store, path: "/d/notes.json", amount: 100)
        #expect(fault.effect(of: read, memory: &memory, rng: &rng).libcAnswer == -1, "CHAOS_LIBC_SHORT")
        for operation in StorageCall.Operation.allCases where operation != .read {
            #expect(!fault.isHit(StorageCall(operation: operation, file: .store, path: "/d/app.sqlite"), on: .any, memory: &memory), "\(operation)")
        }
    }

    @Test func takesNoKeysOfItsOwn() {
        let error = ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - launch\n  - fault: short-read\n    bytes: 3"))
        #expect(error?.message.contains("unknown key 'bytes'") == true, "\(error?.message ?? "no error")")
        ScenarioFixtures.expectRefused("- fault: short-read\n  bytes: 3", at: .key("bytes"), saying: "unknown key 'bytes' in fault 'short-read'")
        ScenarioFixtures.expectRefused("- fault: short-read\n  on: disk", at: .value("on"), saying: "unknown 'on' value 'disk'")
    }
}
