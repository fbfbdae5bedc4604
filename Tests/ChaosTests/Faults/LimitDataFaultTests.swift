import Testing
@testable import Chaos
@testable import ChaosTarget

/// limit-data lets a number of bytes through, then closes the connection (a close,
/// not a reset: the stream ends early). Decided as values, without a socket.
@Suite("Fault: limit-data")
struct LimitDataFaultTests {
    @Test func parsesItsExample() throws {
        let step = try ScenarioFixtures.faultStep(LimitDataFault.example)
        #expect(step.fault == AnyFault(LimitDataFault(bytes: 64)))
        #expect(step.trigger == Trigger())
        #expect(step.label == "fault limit-data 64 bytes")
        let upstream = try ScenarioFixtures.faultStep("- fault: limit-data\n  bytes: 0\n  direction: upstream")
        #expect(upstream.fault == AnyFault(LimitDataFault(bytes: 0, direction: .upstream)))
    }

    @Test func closesAfterTheLimit() {
        var toxic = LimitDataFault(bytes: 10).toxic(seed: 1)
        #expect(toxic.plan(4) == ChunkPlan(pieces: [.init(count: 4)]))
        #expect(toxic.plan(20) == ChunkPlan(pieces: [.init(count: 6)], ending: .close(after: .zero)))
        var nothing = LimitDataFault(bytes: 0).toxic(seed: 1)
        #expect(nothing.atStart() == .close(after: .zero))
    }

    /// The N-th byte ends the stream with a close; after it nothing more passes.
    @Test func closesWithTheLastByteAndLetsNothingAfter() {
        var toxic = LimitDataFault(bytes: 64).toxic(seed: 1)
        #expect(toxic.atStart() == nil)
        #expect(toxic.plan(64) == ChunkPlan(pieces: [.init(count: 64)], ending: .close(after: .zero)))
        #expect(toxic.plan(10) == ChunkPlan(pieces: [], ending: .close(after: .zero)))
        #expect(toxic.closeDelay == .zero && !toxic.swallowsClose)
        #expect(!LimitDataFault(bytes: 64).closesTheListener(Trigger()))
    }

    @Test func refusesBadParametersWhereTheyAreWritten() {
        ScenarioFixtures.expectRefused("- fault: limit-data", at: .step, saying: "fault 'limit-data' needs 'bytes:'")
        ScenarioFixtures.expectRefused("- fault: limit-data\n  bytes: many", at: .value("bytes"), saying: "expected an integer, found 'many'")
        ScenarioFixtures.expectRefused("- fault: limit-data\n  bytes: -1", at: .value("bytes"), saying: "must be from 0")
    }
}
