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

    /// What the app acknowledges while a file is away is not judged (no app can tell a
    /// store not there yet from none, and the file coming back displaces what it saved
    /// meanwhile); what it acknowledged before is, and after it is back again.
    @Test func whatIsSavedWhileAFileIsAwayIsNotJudged() {
        let log = CaseLog()
        log.record(WorkerEvent(event: .ack, key: "entry:1"), atMs: 0)
        log.filesAway += 1
        log.record(WorkerEvent(event: .ack, key: "entry:2"), atMs: 1)
        log.filesAway -= 1
        log.record(WorkerEvent(event: .ack, key: "entry:3"), atMs: 2)
        #expect(log.evidence.acknowledged == ["entry:1", "entry:3"])
        #expect(log.evidence.attempted.contains("entry:2"), "it may be there or not")
        log.evidence.finalSnapshot = ["entry": ["entry:1": "1"]]
        let result = ExpectationEvaluator.evaluate(.noSilentLoss, evidence: log.evidence)
        #expect(!result.passed && result.detail?.contains("lost: entry:3") == true, "\(result.detail ?? "")")
        #expect(result.detail?.contains("entry:2") == false)
    }
}
