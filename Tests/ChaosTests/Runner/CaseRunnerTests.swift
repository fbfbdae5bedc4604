import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The runner's step loop against a scripted app: what it asks each launch of the
/// app, and what it makes of the answers. No process, no SQLite.
@Suite struct CaseRunnerTests {
    static let trapStderr = """
        App/Store.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value
        💣 Program crashed: System trap at 0x0000000000001234
        0 0x0000000000001234 Store.open() in worker at /src/App/Store.swift:42:17
        """

    @Test func aNewLaunchIsArmedWithEachFaultWhereItStood() throws {
        let app = ScriptedApp { _, request in
            guard request.op == .perform else { return nil }
            // The first launch reports: the fault saw 3 hits and fired once.
            let standing = FaultStanding(id: "step-1", counter: TriggerCounter(hits: 3, fired: 1, randomState: 7))
            return .reply(WorkerReply(.actionDone(value: nil, isRead: false), status: WorkerStatus(faults: [standing])))
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: """
              - fault: throw
                point: store/favorites/*
                times: 2
              - launch
              - do: favorites.list
              - stop
              - launch
              - do: favorites.list
            """))
        let arms = app.requests(.arm)
        #expect(arms.map(\.launch) == [1, 2], "armed in both launches")
        #expect(arms.first?.request.fault?.counter == TriggerCounter(seed: arms.first?.request.fault?.seed ?? 0))
        #expect(arms.last?.request.fault?.counter == TriggerCounter(hits: 3, fired: 1, randomState: 7),
                "the second launch goes on from the count the first reported")
        #expect(arms.allSatisfy { $0.request.fault?.id == "step-1" })
        #expect(report.faults?.first?.fired == 1)
        #expect(report.verdict == .passed)
    }

    @Test func aSpentFaultIsNotArmedAgain() throws {
        let app = ScriptedApp { _, request in
            guard request.op == .perform else { return nil }
            let standing = FaultStanding(id: "step-1", counter: TriggerCounter(hits: 1, fired: 1, randomState: 0))
            return .reply(WorkerReply(.actionDone(value: nil, isRead: false), status: WorkerStatus(faults: [standing])))
        }
        _ = try app.run(ScenarioFixtures.scenario(steps: """
              - fault: throw
                point: store/favorites/fetch
                times: 1
              - launch
              - do: favorites.list
              - stop
              - launch
            """))
        #expect(app.requests(.arm).map(\.launch) == [1], "times: 1 was used up in the first launch")
    }

    @Test func aFiringStreamedBeforeATrapCountsAndTheTrapIsSited() throws {
        let firing = FaultFiring(id: "step-2", kind: "throw", hit: 1, target: "store/favorites/fetch", detail: "fail", fired: 1)
        let app = ScriptedApp { _, request in
            guard request.op == .perform else { return nil }
            return .dies(.signaled(4), stderr: Self.trapStderr, events: [WorkerEvent(fired: firing)])
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: """
              - launch
              - fault: throw
                point: store/favorites/fetch
                times: 1
              - do: favorites.list
            """))
        #expect(report.verdict == .deviated)
        #expect(report.trap?.site == "Store.swift:42")
        #expect(report.injections.map(\.kind) == ["throw"])
        #expect(report.faults?.first?.fired == 1)
        #expect(report.steps.last?.outcome == .trapped)
    }

    @Test func twoFaultsOnOnePointAreArmedUnderTheirOwnIDs() throws {
        let app = ScriptedApp()
        _ = try app.run(ScenarioFixtures.scenario(steps: """
              - launch
              - fault: throw
                point: store/favorites/fetch
                times: 1
              - fault: delay
                point: store/favorites/fetch
                for: 10ms
              - clear: throw
            """))
        #expect(app.requests(.arm).compactMap(\.request.fault?.id) == ["step-2", "step-3"])
        #expect(app.requests(.disarm).compactMap(\.request.name) == ["step-2"], "clear: throw leaves the delay armed")
    }

    @Test func aHangIsKilledAndSaysSo() throws {
        let app = ScriptedApp { _, request in request.op == .perform ? .hangs : nil }
        let report = try app.run(ScenarioFixtures.scenario(steps: "  - launch\n  - do: favorites.list\n  - stop"))
        #expect(report.verdict == .deviated)
        #expect(report.expectations.first?.observed.hasPrefix("hung: no answer to 'favorites.list'") == true)
        #expect(report.steps.count == 2, "the case ends at the step that hung")
    }

    @Test func aPowerCutTheCaseArmedIsNotATrapAndTheNextLaunchGoesOn() throws {
        let app = ScriptedApp { launch, request in
            launch == 1 && request.op == .perform ? .dies(.exited(PowerLoss.exitCode), stderr: "") : nil
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: """
              - power-loss: drop
                after-writes: 3
              - launch
              - do: favorites.add
              - launch
              - do: favorites.list
            """))
        #expect(report.verdict == .passed, "\(report.expectations)")
        #expect(report.steps.map(\.outcome) == [.ok, .ok, .powerLost, .ok, .ok])
        #expect(app.requests(.powerLoss).map(\.launch) == [1], "armed before the first launch, in it only")
        #expect(report.faults?.first { $0.kind == "power-loss" }?.fired == 1)
    }

    @Test func aHarnessRefusalIsErroredNotTheAppsFault() throws {
        let app = ScriptedApp { _, request in
            guard request.op == .arm else { return nil }
            return .reply(WorkerReply(.failed(.control, error: "no such seam")))
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: "  - launch\n  - fault: busy"))
        #expect(report.verdict == .errored)
        #expect(report.error == "the worker could not 'arm': no such seam")
    }

    /// The cut a case armed falls in Chaos's own end-of-case stop: the app is launched
    /// again on the disk as the cut left it, and its data is judged from there.
    @Test func aCutInTheFinalStopIsFollowedByARelaunchAndASnapshot() throws {
        let app = ScriptedApp { launch, request in
            switch (launch, request.op) {
            case (1, .perform):
                return .events([WorkerEvent(event: .ack, key: "favorite:1")], then: WorkerReply(.actionDone(value: nil, isRead: false)))
            case (1, .stop): return .dies(.exited(PowerLoss.exitCode), stderr: "")
            case (_, .snapshot):
                return .reply(WorkerReply(.snapshot(["favorite": ["favorite:1": "one"]])))
            default: return nil
            }
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: """
              - power-loss: drop
                after-writes: 50
              - launch
              - do: favorites.add
            """, expect: "  - preserved: acknowledged"))
        #expect(report.verdict == .passed, "\(report.expectations) \(report.error ?? "")")
        #expect(app.requests(.snapshot).map(\.launch) == [2], "read on a new launch after the cut")
    }

    /// Evidence the harness could not gather is not data lost: the case is errored.
    @Test func aMissingFinalSnapshotIsErroredNotLostData() throws {
        let app = ScriptedApp { _, request in
            guard request.op == .snapshot else { return nil }
            return .reply(WorkerReply(.failed(.app, error: "the snapshot query failed")))
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: "  - launch\n  - do: favorites.add",
                                                           expect: "  - preserved: acknowledged"))
        #expect(report.verdict == .errored)
        #expect(report.error?.contains("no final snapshot to judge the data by") == true, "\(report.error ?? "")")
        #expect(report.error?.contains("the snapshot query failed") == true)
    }

    /// An app that cannot read its own data and also fails what needs no snapshot (no
    /// successful read after its launch) has deviated: that is its failure, not the harness's.
    @Test func aMissingFinalSnapshotBesideTheAppsOwnFailureIsDeviated() throws {
        let app = ScriptedApp { _, request in
            guard request.op == .snapshot || request.op == .perform else { return nil }
            return .reply(WorkerReply(.failed(.app, error: "database disk image is malformed")))
        }
        let report = try app.run(ScenarioFixtures.scenario(steps: "  - launch\n  - do: favorites.list",
                                                           expect: "  - preserved: acknowledged\n  - recovered-within: 5s"))
        #expect(report.verdict == .deviated, "\(report.expectations.map(\.observed)) \(report.error ?? "")")
        #expect(report.expectations.contains { $0.kind == "recovered-within" && !$0.passed })
    }
}
