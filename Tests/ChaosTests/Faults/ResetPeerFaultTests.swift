import Testing
@testable import Chaos
@testable import ChaosTarget

/// reset-peer resets the connection (ECONNRESET): at once, after a timeout, or with the
/// first byte past `after-bytes`. Decided as values, without a socket.
@Suite("Fault: reset-peer")
struct ResetPeerFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(ResetPeerFault.example)
        #expect(step.fault == AnyFault(ResetPeerFault(afterBytes: 0, direction: .downstream)))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault reset-peer after 0 bytes")
        let timeout = try ScenarioFixtures.faultStep("- fault: reset-peer\n  timeout: 100ms\n  direction: both")
        #expect(timeout.fault == AnyFault(ResetPeerFault(timeout: .milliseconds(100), direction: .both)))
        #expect(timeout.fault.label == "reset-peer after 100ms (both)")
    }

    @Test func resetsAtOnceOrAfterBytes() {
        var atOnce = ResetPeerFault().toxic(seed: 1)
        #expect(atOnce.atStart() == .reset(after: .zero))
        var later = ResetPeerFault(timeout: .milliseconds(300)).toxic(seed: 1)
        #expect(later.atStart() == .reset(after: .milliseconds(300)))
        var afterBytes = ResetPeerFault(afterBytes: 10).toxic(seed: 1)
        #expect(afterBytes.atStart() == nil)
        #expect(afterBytes.plan(6) == ChunkPlan(pieces: [.init(count: 6)]))
        #expect(afterBytes.plan(6) == ChunkPlan(pieces: [.init(count: 4)], ending: .reset(after: .zero)))
        var onFirstByte = ResetPeerFault(afterBytes: 0).toxic(seed: 1)
        #expect(onFirstByte.plan(100) == ChunkPlan(pieces: [], ending: .reset(after: .zero)))
    }

    /// N bytes pass whole; the reset comes with the next byte, not with the N-th.
    @Test func theResetComesWithTheFirstBytePastTheLimit() {
        var toxic = ResetPeerFault(afterBytes: 10).toxic(seed: 1)
        #expect(toxic.plan(10) == ChunkPlan(pieces: [.init(count: 10)]))
        #expect(toxic.plan(1) == ChunkPlan(pieces: [], ending: .reset(after: .zero)))
        #expect(toxic.closeDelay == .zero && !toxic.swallowsClose)
    }

    /// `after-bytes: 0, direction: downstream` lets the request through untouched (the
    /// fault is not on that flow) and resets when the answer starts.
    @Test func theExampleLetsTheRequestThroughAndResetsTheAnswer() throws {
        let fault = try #require(try ScenarioFixtures.faultStep(ResetPeerFault.example).fault.as(ResetPeerFault.self))
        #expect(fault.direction.flows == [.downstream])
        var answer = fault.toxic(seed: 1)
        #expect(answer.atStart() == nil, "the connection opens")
        #expect(answer.plan(512) == ChunkPlan(pieces: [], ending: .reset(after: .zero)))
        #expect(!fault.closesTheListener(Trigger()))
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: reset-peer\n  after-bytes: 10\n  timeout: 1s", at: .value("timeout"),
                                       saying: "give 'after-bytes' or 'timeout', not both")
        ScenarioFixtures.expectRefused("- fault: reset-peer\n  after-bytes: -1", at: .value("after-bytes"), saying: "must be from 0")
        ScenarioFixtures.expectRefused("- fault: reset-peer\n  timeout: later", at: .value("timeout"), saying: "expected a duration")
    }
}
