import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// A failed reply says what failed (``WorkerReply/Answer/failure``), and the controller decides
/// by that, never by the human text of its `error`.
@Suite struct WorkerFailureTests {
    /// The target's refusal errors the case, its text as the worker wrote it; an app's
    /// failure whose text happens to read like one is the app's, judged.
    @Test func theControllerDecidesByTheKindNotTheText() throws {
        func app(_ failure: WorkerFailure, error: String) -> ScriptedApp {
            ScriptedApp { _, request in
                guard request.op == .perform else { return nil }
                return .reply(WorkerReply(.failed(failure, error: error)))
            }
        }
        let scenario = ScenarioFixtures.scenario(steps: "  - launch\n  - do: favorites.list")
        let refused = try app(.target, error: "'count' of favorites.list must be a whole number").run(scenario)
        #expect(refused.verdict == .errored)
        #expect(refused.error == "the target refused 'favorites.list': 'count' of favorites.list must be a whole number")

        let failed = try app(.app, error: "target: the app's own words").run(scenario)
        #expect(failed.verdict != .errored, "\(failed.error ?? "")")
        #expect(failed.error == nil)
    }

    /// The built-in worker (`chaos worker`): what it refuses is a `target` failure, its
    /// `error` the refusal's text alone.
    @Test func theWorkerMarksItsRefusalsAsTheTargets() throws {
        let folder = try TemporaryFolder()
        let context = TargetContext(dataDirectory: folder.url.appendingPathComponent("data"), variant: "hardened")
        try FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        let start = try WorkerSession.start(command: .reference, context: context, stderrFile: folder.url.appendingPathComponent("stderr"),
                                            deadline: .now + .seconds(30))
        guard case let .ready(link) = start else {
            Issue.record("the worker did not start: \(start)")
            return
        }
        defer { link.kill() }
        for (request, text) in [(WorkerRequest(.probe("no-such-probe")), "unknown probe 'no-such-probe'"),
                                (WorkerRequest(.perform("no.such.action", arguments: [:])), "unknown action 'no.such.action'")] {
            guard case let .reply(reply) = link.request(request, deadline: .now + .seconds(30), onEvent: { _ in }) else {
                Issue.record("no reply to \(request.op)")
                return
            }
            guard case let .failed(failure, error) = reply.answer else {
                Issue.record("\(request.op) was answered \(reply.answer)")
                continue
            }
            #expect(failure == .target, "\(request.op)")
            #expect(error?.hasPrefix(text) == true, "\(error ?? "")")
        }
    }
}
