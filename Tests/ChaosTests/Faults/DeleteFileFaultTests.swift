import Testing
@testable import Chaos
@testable import ChaosTarget

/// delete-file removes exactly the named file while the app is down.
@Suite("Fault: delete-file")
struct DeleteFileFaultTests {
    @Test func parsesItsExampleAndPlansADeletion() throws {
        let step = try ScenarioFixtures.faultStep(DeleteFileFault.example)
        #expect(step.fault == AnyFault(DeleteFileFault(file: "store")))
        #expect(step.fault.label == "delete-file store")
        var rng = SplitMix64(seed: 1)
        #expect(DeleteFileFault().plan(fileSize: 100, rng: &rng) == .delete)
    }

    /// Exactly the named file, whatever its size: its `-wal` is a file of its own.
    @Test func deletesExactlyTheNamedFile() throws {
        let wal = try ScenarioFixtures.faultStep("- fault: delete-file\n  file: wal")
        #expect(wal.fault == AnyFault(DeleteFileFault(file: "wal")))
        #expect(try ScenarioFixtures.faultStep("- fault: delete-file").fault == AnyFault(DeleteFileFault(file: "store")), "store by default")
        var rng = SplitMix64(seed: 1)
        #expect([0, 1, 1 << 20].allSatisfy { DeleteFileFault(file: "wal").plan(fileSize: $0, rng: &rng) == .delete })
        #expect(DeleteFileFault.needsTheFile)
    }

    @Test func rejectsBadParameters() {
        ScenarioFixtures.expectRefused("- fault: delete-file\n  how: truncate", at: .key("how"), saying: "unknown key 'how' in fault 'delete-file'")
        ScenarioFixtures.expectRefused("- fault: delete-file\n  file: a/b", at: .value("file"), saying: "must be a logical file name like 'store'")
        ScenarioFixtures.expectRefused("- fault: delete-file\n  times: 1", at: .key("times"), saying: "delete-file acts once")
    }
}
