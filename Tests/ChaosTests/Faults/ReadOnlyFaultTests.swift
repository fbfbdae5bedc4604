import Testing
@testable import Chaos
@testable import ChaosTarget

/// read-only clears a file's write permission bits while the app is down; the app's
/// workers then run without root's override of them, or the bits would mean nothing.
@Suite("Fault: read-only")
struct ReadOnlyFaultTests {
    @Test func parsesItsExampleAndPlansReadOnly() throws {
        let step = try ScenarioFixtures.faultStep(ReadOnlyFault.example)
        #expect(step.fault == AnyFault(ReadOnlyFault(file: "store")))
        #expect(step.fault.label == "read-only store")
        var rng = SplitMix64(seed: 1)
        #expect(ReadOnlyFault(file: "wal").plan(fileSize: 0, rng: &rng) == .makeReadOnly)
    }

    @Test func needsThePermissionBitsHonoured() {
        #expect(ReadOnlyFault.needsPermissionBits, "root ignores permission bits")
        #expect(ReadOnlyFault.needsTheFile)
        var rng = SplitMix64(seed: 2)
        #expect(ReadOnlyFault().plan(fileSize: 1 << 20, format: .plain, rng: &rng) == .makeReadOnly, "whatever the file holds")
    }

    @Test func rejectsBadParameters() {
        ScenarioFixtures.expectRefused("- fault: read-only\n  file: ''", at: .value("file"), saying: "must be a logical file name like 'store'")
        ScenarioFixtures.expectRefused("- fault: read-only\n  mode: 444", at: .key("mode"), saying: "unknown key 'mode' in fault 'read-only'")
    }
}
