import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// file-unavailable takes a file away until cleared: a file fault that stands, acts while
/// the app runs too, and loses nothing of what the file held (it comes back).
@Suite("Fault: file-unavailable")
struct FileUnavailableFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(FileUnavailableFault.example)
        #expect(step.fault == AnyFault(FileUnavailableFault(file: "store")))
        #expect(step.label == "fault file-unavailable store")
    }

    @Test func standsUntilClearedUnlikeDamage() {
        var rng = SplitMix64(seed: 1)
        #expect(FileUnavailableFault().plan(fileSize: 100, rng: &rng) == .setAside)
        #expect(AnyFault(FileUnavailableFault()).stands && FileUnavailableFault.actsWhileRunning)
        #expect(!FileUnavailableFault.losesWhatTheFileHeld, "it comes back")
        #expect(!AnyFault(DeleteFileFault()).stands, "a deleted file is done, not standing")
    }

    @Test func takesNoTrigger() {
        ScenarioFixtures.expectRefused("- fault: file-unavailable\n  times: 2", at: .key("times"),
                                       saying: "file-unavailable acts once, when its step runs: it takes no trigger")
    }
}
