import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Recovery as users mean it: after a fault is cleared, a read that fails while the app
/// backs off is asked again until it answers or the bound has passed; the time reported
/// is the time it took. A read that fails under a standing fault is asked once.
@Suite struct RecoveryPollTests {
    /// An app whose list fails `failing` times after its first success, then answers.
    static func app(failing: Int) -> ScriptedApp {
        final class Count: @unchecked Sendable { var lists = 0 }
        let count = Count()
        return ScriptedApp { _, request in
            guard request.op == .perform, request.name == "favorites.list" else { return nil }
            count.lists += 1
            if count.lists > 1 && count.lists <= 1 + failing {
                return .reply(WorkerReply(.actionFailed(userMessage: "Favorites will try again in a moment.", error: nil, value: nil)))
            }
            return .reply(WorkerReply(.actionDone(value: .int(3), isRead: true)))
        }
    }

    static let scenario = ScenarioFixtures.scenario(steps: """
          - launch
          - do: favorites.list
          - fault: throw
            point: store/favorites/fetch
          - clear: all
          - do: favorites.list
        """, expect: "  - recovered-within: 5s")

    @Test func aReadThatFailsWhileTheAppBacksOffIsAskedAgainUntilItAnswers() throws {
        let app = Self.app(failing: 3)
        let report = try app.run(Self.scenario)
        #expect(report.verdict != .deviated, "\(report.expectations)")
        #expect(app.requests(.perform).filter { $0.request.name == "favorites.list" }.count == 5, "1 before, 3 failed, 1 answered")
        let recovered = try #require(report.expectations.first { $0.kind == "recovered-within" })
        #expect(recovered.passed, "\(recovered)")
        #expect(report.recoveryMs.map { $0 >= 50 } == true, "the pauses between the tries count: \(report.recoveryMs ?? -1)")
        #expect(report.steps.last?.detail?.contains("asked 4 times while the app recovered") == true, "\(report.steps.last?.detail ?? "")")
    }

    @Test func aReadThatNeverAnswersFailsWithWhatItSaid() throws {
        let app = Self.app(failing: 1_000_000)
        let report = try app.run(Self.scenario.replacingOccurrences(of: "5s", with: "300ms"))
        let recovered = try #require(report.expectations.first { $0.kind == "recovered-within" })
        #expect(!recovered.passed)
        #expect(recovered.detail?.contains("the read failed") == true && recovered.detail?.contains("try again in a moment") == true,
                "\(recovered.detail ?? "")")
    }

    @Test func aReadUnderAStandingFaultIsAskedOnce() throws {
        let app = Self.app(failing: 3)
        _ = try app.run(Self.scenario.replacingOccurrences(of: "  - clear: all\n", with: ""))
        #expect(app.requests(.perform).filter { $0.request.name == "favorites.list" }.count == 2)
    }

    @Test func thePausesGrowAndStopAtTheBound() {
        var poll = RecoveryPoll(bound: .seconds(1))
        let start = ContinuousClock.now
        #expect(poll.nextPause(since: start, now: start) == .milliseconds(50))
        #expect(poll.nextPause(since: start, now: start) == .milliseconds(100))
        #expect(poll.nextPause(since: start, now: start + .milliseconds(950)) == .milliseconds(50), "never past the bound")
        #expect(poll.nextPause(since: start, now: start + .seconds(1)) == nil)
        #expect(poll.nextPause(since: nil, now: start) == nil)
    }
}
