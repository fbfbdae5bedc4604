@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// Shrinking with a stand-in for running: a schedule "fails" when it holds two given
/// steps in order, so the smallest failing one is known and checked exactly.
@Suite struct HuntShrinkerTests {
    static let culprit = WrittenStep.fault("throw", [HuntKey("point", .string("store/favorites/fetch")), HuntKey("times", .int(3))])
    static let trigger = WrittenStep.action("favorites.list", [])

    /// Fails (a trap at `X.swift:1`) when the schedule launches, then holds the
    /// culprit (any `times`) and then the trigger.
    static func run(_ schedule: HuntSchedule) -> CaseReport? {
        guard schedule.isWellFormed else { return nil }
        // As the scenario loader: a throw names its point.
        for case let .fault("throw", keys) in schedule.steps where !keys.contains(where: { $0.key == "point" }) { return nil }
        let steps = schedule.steps
        let launch = steps.firstIndex(of: .launch)
        let fault = steps.firstIndex { if case .fault("throw", _) = $0 { true } else { false } }
        let read = steps.lastIndex(of: trigger)
        var report = ReportSample.passed
        if let launch, let fault, let read, launch < fault, fault < read {
            report.verdict = .deviated
            report.trap = TrapRecord(signal: 4, signalName: "SIGILL", message: "Fatal error", site: "X.swift:1", backtrace: nil)
        }
        return report
    }

    static let big = HuntSchedule(index: 3, seed: 9, system: "favorites", steps: [
        .launch, .action("favorites.add", [HuntKey("count", .int(4))]), .clear("io-error"), culprit,
        .action("favorites.add", []), trigger, .kill, .fault("corrupt-file", [HuntKey("file", .string("store"))]), .launch,
        .action("favorites.add", []), .powerLoss("torn", HuntKey("after-writes", .int(7))), .stop, .launch, HuntSchedule.closingRead,
    ])

    func shrink(jobs: Int) throws -> HuntShrinker.Outcome {
        let report = try #require(Self.run(Self.big))
        let failure = try #require(HuntOracle.failure(of: report))
        let shrinker = HuntShrinker(evaluate: { $0.map(Self.run) }, jobs: jobs, deadline: .now + .seconds(60))
        return shrinker.shrink(Self.big, report: report, failure: failure)
    }

    @Test func shrinksToTheFewestStepsThatFailTheSameWay() throws {
        let outcome = try shrink(jobs: 1)
        let simplest = WrittenStep.fault("throw", [HuntKey("point", .string("store/favorites/fetch"))])
        // A trap needs no closing read: the schedule ends where the failure shows.
        #expect(outcome.schedule.steps == [.launch, simplest, Self.trigger])
        #expect(!outcome.cutShort)
        #expect(outcome.report.trap?.site == "X.swift:1")
    }

    @Test func theResultDoesNotDependOnHowManyRunAtOnce() throws {
        let one = try shrink(jobs: 1)
        for jobs in [2, 5] {
            #expect(try shrink(jobs: jobs).schedule == one.schedule)
        }
    }

    @Test func aBoundStopsItWithTheSmallestSoFar() throws {
        let report = try #require(Self.run(Self.big))
        let failure = try #require(HuntOracle.failure(of: report))
        let shrinker = HuntShrinker(evaluate: { $0.map(Self.run) }, jobs: 1, maxRuns: 12, deadline: .now + .seconds(60))
        let outcome = shrinker.shrink(Self.big, report: report, failure: failure)
        #expect(outcome.cutShort)
        #expect(outcome.schedule.steps.count < Self.big.steps.count)
        #expect(Self.run(outcome.schedule).flatMap { HuntOracle.failure(of: $0) } == failure)
    }

    /// A hang's run at the full timeout that shows another failure stops its shrink at
    /// the next round, as the deadline does.
    @Test func aStopEndsItAtTheNextRound() throws {
        let report = try #require(Self.run(Self.big))
        let failure = try #require(HuntOracle.failure(of: report))
        final class Rounds: @unchecked Sendable { var count = 0 }
        let rounds = Rounds()
        var shrinker = HuntShrinker(evaluate: { batch in
            rounds.count += 1
            return batch.map(Self.run)
        }, jobs: 1, deadline: .now + .seconds(60))
        shrinker.stop = { rounds.count >= 2 }
        let outcome = shrinker.shrink(Self.big, report: report, failure: failure)
        #expect(rounds.count == 2)
        #expect(outcome.cutShort)
    }

    /// A hang's skeletons (its launch and the step that hung, with each one step between
    /// them) come before the halves: a hang that needs one fault is shrunk to three steps
    /// in one round, as the same search without them gets there in several.
    @Test func aHangTriesItsSkeletonsFirst() throws {
        let blackhole = WrittenStep.fault("blackhole", [HuntKey("remote", .string("postgres"))])
        let add = WrittenStep.action("orders.add", [])
        let hang = HuntOracle.Failure(kind: .hang, core: "hang after a network fault on postgres")
        // Hangs at the first `add` after a launch and a black hole; the report says which step.
        func run(_ schedule: HuntSchedule) -> CaseReport? {
            guard schedule.isWellFormed else { return nil }
            var report = ReportSample.passed
            let steps = schedule.steps
            guard let launch = steps.firstIndex(of: .launch), let fault = steps.firstIndex(of: blackhole), launch < fault,
                  let hung = steps[fault...].firstIndex(of: add) else { return report }
            report.verdict = .deviated
            report.steps = (0...hung).map { StepRecord(index: $0 + 1, label: "\(steps[$0])", startMs: 0, durationMs: 20, outcome: .ok) }
            report.steps[hung].outcome = .error
            report.steps[hung].detail = "hung: no answer to 'orders.add' in 3.0 s, until the bound on one step learnt from a plain run"
            return ReportSample.hung(report, during: "orders.add")
        }
        let schedule = HuntSchedule(index: 16, seed: 1, system: "orders", steps: [
            .launch, .action("orders.list", []), .action("orders.add", [HuntKey("count", .int(2))]), blackhole,
            .action("orders.list", []), .clear("latency"), add, .action("orders.list", []), .stop,
        ])
        let report = try #require(run(schedule))
        #expect(HuntShrinker.hungStep(of: report) == 6)
        #expect(HuntShrinker.candidates(of: schedule, hungAt: 6).prefix(3).map(\.steps)
            == [[.launch, add], [.launch, .action("orders.list", []), add], [.launch, .action("orders.add", [HuntKey("count", .int(2))]), add]])
        // The same search for a failure that is no hang (no skeletons) takes more rounds.
        final class Rounds: @unchecked Sendable { var count = 0 }
        for failure in [hang, HuntOracle.Failure(kind: .trap, core: "trap at X.swift:1")] {
            let rounds = Rounds()
            let shrinker = HuntShrinker(evaluate: { batch in
                rounds.count += 1
                return batch.map(run)
            }, judge: { _, report in report.verdict == .deviated ? failure : nil }, jobs: 2, deadline: .now + .seconds(60))
            let outcome = shrinker.shrink(schedule, report: report, failure: failure)
            #expect(outcome.schedule.steps == [.launch, blackhole, add])
            if failure.kind == .hang {
                #expect(rounds.count == 2, "the skeleton in the first round, then none smaller")
            } else {
                #expect(rounds.count > 2)
            }
        }
    }

    @Test func failuresAreNamedForTheirFiles() {
        #expect(HuntOracle.Failure(kind: .trap, core: "trap at LegacyStore.swift:18").name == "trap-legacy-store-18")
        #expect(HuntOracle.Failure(kind: .trap, core: "trap at LegacyFavoritesDataSource.swift:44").name == "trap-legacy-favorites-data-source-44")
        #expect(HuntOracle.Failure(kind: .expectations, core: "integrity, no-silent-loss").name == "fails-integrity-no-silent-loss")
        #expect(HuntOracle.Failure(kind: .trap, core: "trap: Fatal error: Über").name == "trap-fatal-error-ber")
    }

    /// 1-minimal: no candidate one edit away from the result fails the same way.
    @Test func theResultIsOneMinimal() throws {
        let outcome = try shrink(jobs: 2)
        let failure = try #require(HuntOracle.failure(of: outcome.report))
        for candidate in HuntShrinker.candidates(of: outcome.schedule) where candidate.isWellFormed(for: failure) {
            #expect(Self.run(candidate).flatMap { HuntOracle.failure(of: $0) } != failure, "\(candidate.steps) still fails")
        }
    }

    @Test func aBoundSaysHowManyStepsWereLeftUntried() throws {
        let report = try #require(Self.run(Self.big))
        let failure = try #require(HuntOracle.failure(of: report))
        let shrinker = HuntShrinker(evaluate: { $0.map(Self.run) }, jobs: 1, maxRuns: 3, deadline: .now + .seconds(60))
        let outcome = shrinker.shrink(Self.big, report: report, failure: failure)
        #expect(outcome.cutShort)
        #expect(outcome.untriedSteps > 0 && outcome.untriedSteps <= outcome.schedule.steps.count, "\(outcome.untriedSteps)")
    }

    /// A failure that shows 3 runs in 5 is shrunk by candidates that fail at least as
    /// often: a step that makes it fail more often is kept, though without it the
    /// schedule still fails now and then.
    @Test func aFlakyFailureIsShrunkByCandidatesThatFailAtLeastAsOften() throws {
        let helper = WrittenStep.action("favorites.add", [HuntKey("count", .int(4))])
        final class Runs: @unchecked Sendable { var count = 0 }
        let runs = Runs()
        // With the helper, 3 runs in 5 fail; without it, 1 in 5.
        func flaky(_ schedule: HuntSchedule) -> CaseReport? {
            guard let report = Self.run(schedule) else { return nil }
            runs.count += 1
            guard report.trap != nil else { return report }
            let often = schedule.steps.contains(helper) ? 3 : 1
            return runs.count % 5 < often ? report : ReportSample.passed
        }
        let report = try #require(Self.run(Self.big))
        let failure = try #require(HuntOracle.failure(of: report))
        let shrinker = HuntShrinker(evaluate: { $0.map(flaky) }, jobs: 1, deadline: .now + .seconds(60))
        let outcome = shrinker.shrink(Self.big, report: report, failure: failure, rate: HuntShrinker.Rate(failed: 3, tries: 5))
        #expect(outcome.schedule.steps.contains(helper), "\(outcome.schedule.steps)")
        #expect(outcome.schedule.steps.count < Self.big.steps.count)
    }

    @Test func aCaseThatProvesNothingIsNoFailure() {
        var report = ReportSample.passed
        for verdict in [Verdict.passed, .inconclusive, .errored, .skipped] {
            report.verdict = verdict
            #expect(HuntOracle.failure(of: report) == nil, "\(verdict)")
        }
    }
}
