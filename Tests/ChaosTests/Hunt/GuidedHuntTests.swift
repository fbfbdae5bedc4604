@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// The guided strategy's parts, with no process: what a run's signature holds, when a
/// schedule joins the corpus, and that every mutation is a schedule the generator could
/// have written — one the scenario format and the target take, closed as every schedule
/// is, its deferred cuts called off by a stop.
@Suite @MainActor struct GuidedHuntTests {
    static func accepts(_ schedule: HuntSchedule) -> Bool {
        guard schedule.isWellFormed, let scenario = try? schedule.scenario(name: "hunt-\(schedule.index)", summary: "s", file: "hunt/x.yaml")
        else { return false }
        return ScenarioTargetCheck.problems(scenario, target: HuntGeneratorTests.declaration).isEmpty
    }

    /// The invariants a schedule keeps: a launch before any action, a cut at a later
    /// moment ended by a stop (or by itself, never by a kill, a cut now or a launch), and
    /// the closing steps.
    static func problems(of schedule: HuntSchedule) -> [String] {
        var problems: [String] = []
        let steps = schedule.steps
        if let action = steps.firstIndex(where: { if case .action = $0 { true } else { false } }),
           (steps.firstIndex(of: .launch) ?? .max) > action { problems.append("an action before the first launch") }
        if !schedule.endsWithTheClosingRead || steps.suffix(2).first != .launch { problems.append("not closed by a launch and the read") }
        if schedule.injects, steps.suffix(3).first != .clear("all") { problems.append("faults not cleared before the closing launch") }
        var cutWaits = false
        for step in steps.dropLast(2) {
            switch step {
            case let .powerLoss(_, moment) where !moment.isEmpty: cutWaits = true
            case .stop: cutWaits = false
            case .kill, .launch, .powerLoss:
                if cutWaits { problems.append("a cut waiting for its moment ended by \(step)") }
                cutWaits = false
            default: break
            }
        }
        return problems
    }

    @Test func mutationsKeepSchedulesWellFormedOverManySeeds() {
        var tried = 0
        var made = 0
        for seed in UInt64(1)...40 {
            let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: seed)
            let mutator = HuntMutator(generator: generator)
            let parents = (0..<12).map(generator.schedule)
            for index in 16..<40 {
                var random = HuntDraws(seed: SplitMix64.subseed(seed, "test/\(index)"))
                let other = random.chance(30) ? random.pick(parents) : nil
                tried += 1
                guard let child = mutator.mutate(random.pick(parents), splicingWith: other, index: index, &random) else { continue }
                made += 1
                #expect(Self.problems(of: child).isEmpty, "seed \(seed), schedule \(index): \(Self.problems(of: child)) in \(child.steps)")
                #expect(Self.accepts(child), "seed \(seed), schedule \(index) is refused: \(child.steps)")
            }
        }
        #expect(made * 10 >= tried * 9, "\(made) of \(tried) mutations made a new schedule")
    }

    @Test func mendingPutsTheLifecycleRight() {
        let cut = WrittenStep.powerLoss("drop", HuntKey("after-writes", .int(3)))
        let damage = WrittenStep.fault("delete-file", [HuntKey("file", .string("store"))])
        let write = WrittenStep.action("workload.write", [])
        #expect(HuntMutator.repaired([write, .stop, .stop, write]) == [.launch, write, .stop, .launch, write, .stop])
        #expect(HuntMutator.repaired([.launch, cut, .kill, .launch, write]) == [.launch, cut, .stop, .launch, write, .stop])
        #expect(HuntMutator.repaired([.launch, write, damage, .launch, cut]) == [.launch, write, .stop, damage, .launch, cut, .stop])
    }

    @Test func theSameDrawsMakeTheSameChild() {
        let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: 5)
        let mutator = HuntMutator(generator: generator)
        func child(_ index: Int) -> HuntSchedule? {
            var random = HuntDraws(seed: SplitMix64.subseed(5, "hunt/guided/\(index)"))
            return mutator.mutate(generator.schedule(3), splicingWith: generator.schedule(4), index: index, &random)
        }
        #expect((20..<40).map(child) == (20..<40).map(child))
    }

    @Test func aGuideWithAnEmptyCorpusWritesTheRandomSchedules() {
        let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: 9)
        var guide = HuntGuide(generator: generator, accepts: Self.accepts)
        #expect((0..<HuntGuide.batchSize).map { guide.schedule($0) } == (0..<HuntGuide.batchSize).map(generator.schedule))
    }

    static let steps: [WrittenStep] = [.fault("io-error", [HuntKey("op", .string("write"))]), .launch, .action("favorites.add", []),
                                       .clear("all"), .launch, HuntSchedule.closingRead]

    /// A case of ``steps``: a launch that wrote its WAL under the armed fault, a save that
    /// failed, logged and trapped.
    static var report: CaseReport {
        var report = ReportSample.deviated
        report.pointsReached = ["store/favorites/save"]
        report.steps = [
            StepRecord(index: 1, label: "fault: io-error", startMs: 0, durationMs: 1, outcome: .ok),
            StepRecord(index: 2, label: "launch", startMs: 1, durationMs: 40, outcome: .ok,
                       calls: [SeamCall(seam: .sqlite, op: .write, file: "store.sqlite-wal", result: "SQLITE_IOERR_WRITE", count: 3),
                               SeamCall(seam: .sqlite, op: .read, file: "store.sqlite", result: "ok", count: 9)], mode: "in-memory"),
            StepRecord(index: 3, label: "do: favorites.add", startMs: 41, durationMs: 5, outcome: .trapped),
        ]
        let record = AppLogRecord(level: "error", message: "Save failed after 3 tries at /tmp/chaos-81/data/store.sqlite: SQLite error 10",
                                  label: "app", source: "app", file: "App/Store.swift", function: "save", line: 7)
        report.logs = [LogEntry(record, atMs: 45, step: 3)]
        return report
    }

    @Test func aSignatureHoldsWhatTheRunReached() {
        let features = RunSignature(report: Self.report, steps: Self.steps).features
        let expected: [RunSignature.Feature] = [
            .point("store/favorites/save"),
            .call(op: .write, file: "store.sqlite-wal", result: "SQLITE_IOERR_WRITE", count: .few, armed: ["io-error"]),
            .call(op: .read, file: "store.sqlite", result: "ok", count: .many, armed: ["io-error"]),
            .code("SQLITE_IOERR_WRITE"), .mode("in-memory"),
            .outcome(step: "io-error", .ok), .outcome(step: "launch", .ok), .outcome(step: "favorites.add", .trapped),
            .log(level: "error", message: "Save failed after N tries at store.sqlite: SQLite error 10"),
            .fired("throw"), .trap("QuizGenerator.swift:42"), .failed("no-trap"), .failed("surfaced"),
        ]
        #expect(features == Set(expected), "\(features.subtracting(expected)) more, \(Set(expected).subtracting(features)) missing")
        #expect(RunSignature.armed(along: [.launch, .fault("corrupt-file", []), .launch, .action("a", []), .powerLoss("drop", nil), .launch, .stop])
            == [[], ["corrupt-file"], ["corrupt-file"], [], ["power-loss"], ["power-loss"], []])
    }

    @Test func aScheduleJoinsTheCorpusForWhatNoRunReachedBefore() {
        let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: 2)
        var corpus = HuntCorpus()
        let first = RunSignature(features: [.mode("persistent"), .failed("no-trap")])
        #expect(corpus.admit(generator.schedule(0), first))
        #expect(!corpus.admit(generator.schedule(1), first), "nothing new")
        #expect(!corpus.admit(generator.schedule(2), RunSignature(features: [.mode("persistent")])), "less is nothing new")
        let energy = corpus.energy(of: 0)
        #expect(corpus.admit(generator.schedule(3), RunSignature(features: [.mode("persistent"), .mode("in-memory")]), parents: [0]))
        #expect(corpus.count == 2)
        #expect(corpus.energy(of: 0) > energy, "a parent whose child reached something new is picked more")
        var random = HuntDraws(seed: 1)
        var picks = [0, 0]
        for _ in 0..<200 { picks[corpus.pick(&random)] += 1 }
        #expect(picks[0] > picks[1], "\(picks)")
    }
}
