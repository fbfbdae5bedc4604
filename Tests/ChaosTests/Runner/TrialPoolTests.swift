import Foundation
import Testing
@testable import Chaos

/// The pool a sweep's trials and a hunt's schedules run in: results in index order, at
/// most `jobs` trials at work, and a trial that waits on its app gives its place up to
/// the next (a bounded number of them). Every wait here is for an event, with a bound.
@Suite struct TrialPoolTests {
    /// A flag one trial raises and another waits for, with a bound.
    final class Signal: @unchecked Sendable {
        private let condition = NSCondition()
        private var raised = false

        func raise() {
            condition.lock(); raised = true; condition.broadcast(); condition.unlock()
        }

        /// Whether it was raised within `seconds`.
        func wait(seconds: Double) -> Bool {
            condition.lock(); defer { condition.unlock() }
            let until = Date(timeIntervalSinceNow: seconds)
            while !raised { if !condition.wait(until: until) { return raised } }
            return true
        }
    }

    @Test func resultsComeInIndexOrderWhateverFinishesFirst() {
        // Trial 0 finishes only after trial 2 has: its result is still heard first.
        let thirdDone = Signal()
        var heard: [Int] = []
        TrialPool<Int, Bool>(jobs: 3).run(
            trial: { $0 < 6 ? $0 : nil },
            run: { index, _ in
                if index == 0 { return thirdDone.wait(seconds: 10) }
                if index == 2 { thirdDone.raise() }
                return true
            },
            consume: { index, _, result in
                heard.append(index)
                #expect(result, "trial \(index)")
                return true
            })
        #expect(heard == Array(0..<6))
    }

    @Test func aTrialWaitingOnItsAppLetsTheNextOneStart() {
        func firstSawTheSecond(saysItWaits: Bool, bound: Double) -> Bool {
            let secondStarted = Signal()
            var results: [Bool] = []
            TrialPool<Int, Bool>(jobs: 1).run(
                trial: { $0 < 2 ? $0 : nil },
                run: { index, slot in
                    guard index == 0 else { secondStarted.raise(); return true }
                    if saysItWaits { slot.waiting() }
                    return secondStarted.wait(seconds: bound)
                },
                consume: { _, _, result in results.append(result); return true })
            return results.first ?? false
        }
        #expect(firstSawTheSecond(saysItWaits: true, bound: 10))
        // At work, it holds its place: with one job the second starts after it ends.
        #expect(!firstSawTheSecond(saysItWaits: false, bound: 0.3))
    }

    @Test func waitingTrialsAreBoundedAndATrialAtWorkAgainCountsAgain() {
        let cap = 1 + TrialPool<Int, Int>.waitingPerJob
        final class Live: @unchecked Sendable {
            let condition = NSCondition()
            var now = 0
            var most = 0
            var gateOpen = false
        }
        let live = Live()
        TrialPool<Int, Int>(jobs: 1).run(
            trial: { $0 < cap + 4 ? $0 : nil },
            run: { _, slot in
                live.condition.lock()
                live.now += 1
                live.most = max(live.most, live.now)
                live.condition.broadcast()
                live.condition.unlock()
                slot.waiting()
                live.condition.lock()
                if live.now == cap {
                    // Every place is taken: a trial more would start now if the pool let it.
                    let until = Date(timeIntervalSinceNow: 0.3)
                    while live.now == cap, live.condition.wait(until: until) {}
                    live.gateOpen = true
                    live.condition.broadcast()
                }
                let until = Date(timeIntervalSinceNow: 10)
                while !live.gateOpen, live.condition.wait(until: until) {}
                live.now -= 1
                live.condition.unlock()
                slot.working()
                return 0
            },
            consume: { _, _, _ in true })
        #expect(live.most == cap)
        #expect(live.gateOpen)
    }

    /// A real worker whose list stalls for 2 s keeps the case waiting on a request: with
    /// one job, the next case runs meanwhile and ends first.
    @Test func aStalledRequestOfARealWorkerLetsTheNextCaseRun() throws {
        func scenario(stall: String?) throws -> Scenario {
            let fault = stall.map { "\n  - fault: delay\n    point: store/favorites/fetch\n    for: \($0)" } ?? ""
            let yaml = """
            name: \(stall == nil ? "quick" : "stalled")
            summary: A list, stalled or not.
            system: favorites
            seed: 1
            steps:
              - launch\(fault)
              - do: favorites.list
            """
            return try ScenarioLoader.load(yaml: yaml, file: "pool.yaml", baseDirectory: nil)
        }
        let cases = [try scenario(stall: "2s"), try scenario(stall: nil)]
        let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
        let clock = ContinuousClock()
        var ended: [Int: ContinuousClock.Instant] = [:]
        var verdicts: [Verdict] = []
        TrialPool<Scenario, (CaseReport, ContinuousClock.Instant)>(jobs: 1).run(
            trial: { $0 < cases.count ? cases[$0] : nil },
            run: { scenario, slot in
                let report = CaseRunner(scenario: scenario, options: options, plan: CasePlan().holding(slot)).run()
                return (report, clock.now)
            },
            consume: { index, _, result in
                ended[index] = result.1
                verdicts.append(result.0.verdict)
                return true
            })
        #expect(verdicts == [.passed, .passed])
        let stalled = try #require(ended[0]), quick = try #require(ended[1])
        #expect(quick < stalled, "the quick case ran while the stalled one waited")
    }

    /// A worker waits when it was on the CPU less than half of the time it kept the case
    /// waiting: one at work (a salvage, a migration) keeps its place.
    @Test func aWorkerIsWaitingWhenItHardlyUsedTheCPU() {
        let ticksPerSecond = UInt64(sysconf(Int32(_SC_CLK_TCK)))
        #expect(TrialSlot.isWaiting(cpuTicks: 0, over: .milliseconds(100)))
        #expect(TrialSlot.isWaiting(cpuTicks: ticksPerSecond / 10, over: .milliseconds(500)), "a fifth of the time")
        #expect(!TrialSlot.isWaiting(cpuTicks: ticksPerSecond / 10, over: .milliseconds(100)), "all of the time")
        #expect(!TrialSlot.isWaiting(cpuTicks: ticksPerSecond / 2, over: .seconds(1)), "half of the time")
    }

    /// A hang's run at the full timeout goes on beside its shrink: each sees the other
    /// at work (neither waits for the other to end), and both results come back.
    @Test func twoRunBesideEachOther() {
        let asideStarted = Signal(), mainStarted = Signal()
        let ran = runBeside({ () -> Bool in
            asideStarted.raise()
            return mainStarted.wait(seconds: 10)
        }, { () -> (Bool, Int) in
            mainStarted.raise()
            return (asideStarted.wait(seconds: 10), 7)
        })
        #expect(ran.aside)
        #expect(ran.main.0)
        #expect(ran.main.1 == 7)
    }
}
