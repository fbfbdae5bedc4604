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

    static let steps: [WrittenStep] = [.fault("io-error", [HuntKey("file", .string("store")), HuntKey("op", .string("write"))]), .launch,
                                       .action("favorites.add", []), .clear("all"), .launch, HuntSchedule.closingRead]
    static let files = ["store": "store.sqlite", "backup": "store.sqlite.backup"]

    /// A case of ``steps``: a launch that wrote its WAL under the armed fault and copied
    /// its backup, a save that failed, logged and trapped.
    static var report: CaseReport {
        var report = ReportSample.deviated
        report.pointsReached = ["store/favorites/save"]
        report.steps = [
            StepRecord(index: 1, label: "fault: io-error", startMs: 0, durationMs: 1, outcome: .ok),
            StepRecord(index: 2, label: "launch", startMs: 1, durationMs: 40, outcome: .ok,
                       calls: [SeamCall(seam: .sqlite, op: .write, file: "store.sqlite-wal", result: "SQLITE_IOERR_WRITE", count: 3),
                               SeamCall(seam: .sqlite, op: .read, file: "store.sqlite", result: "ok", count: 9),
                               SeamCall(seam: .libc, op: .rename, file: "store.sqlite.backup.tmp", result: "EIO", count: 1),
                               SeamCall(seam: .libc, op: .open, file: "", result: SeamCall.dropped, count: 12)], mode: "in-memory"),
            StepRecord(index: 3, label: "do: favorites.add", startMs: 41, durationMs: 5, outcome: .error,
                       appErrors: ["SQLite error 10: disk I/O error"]),
        ]
        let record = AppLogRecord(level: "error", message: "Save failed after 3 tries at /tmp/chaos-81/data/store.sqlite: SQLite error 10",
                                  label: "app", source: "app", file: "App/Store.swift", function: "save", line: 7)
        report.logs = [LogEntry(record, atMs: 45, step: 3)]
        return report
    }

    @Test func aSignatureHoldsWhatTheRunReached() {
        let features = RunSignature(report: Self.report, steps: Self.steps, files: Self.files).features
        let expected: [RunSignature.Feature] = [
            .point("store/favorites/save"),
            .call(seam: .sqlite, op: .write, file: "store", result: "SQLITE_IOERR_WRITE", after: "io-error@store"),
            .call(seam: .sqlite, op: .read, file: "store", result: "ok", after: "io-error@store"),
            .call(seam: .libc, op: .rename, file: "backup", result: "EIO", after: "io-error@store"),
            .code("SQLITE_IOERR_WRITE"), .code("EIO"), .mode("in-memory"), .appError("SQLite error 10: disk I/O error"),
            .outcome(step: "io-error", .ok), .outcome(step: "launch", .ok), .outcome(step: "favorites.add", .error),
            .log(level: "error", message: "Save failed after N tries at store.sqlite: SQLite error 10"),
            .fired("throw"), .trap("QuizGenerator.swift:42"), .failed("no-trap"), .failed("surfaced"),
        ]
        #expect(features == Set(expected), "\(features.subtracting(expected)) more, \(Set(expected).subtracting(features)) missing")
        #expect(RunSignature.armed(along: [.launch, .fault("corrupt-file", [HuntKey("file", .string("store"))]), .launch, .action("a", []),
                                           .powerLoss("drop", nil), .launch, .stop])
            == [[], ["corrupt-file@store"], ["corrupt-file@store"], [], ["power-loss"], ["power-loss"], []])
        let standing: [WrittenStep] = [.fault("io-error", []), .fault("throw", []), .launch, .clear("io-error"), .clear("all")]
        #expect(RunSignature.armed(along: standing) == [["io-error"], ["io-error", "throw"], ["io-error", "throw"], ["throw"], []])
    }

    /// A call is told apart by the declared file it belongs to (the longest declared path
    /// it names or extends), not by its path: a temporary copy of the list is the list's.
    @Test func callsAreFiledUnderTheDeclaredFiles() {
        let names = DeclaredFileNames(["store": "todos.json", "backup": "./todos.json.backup", "backups": "backups/"])
        #expect(names.name(of: "todos.json") == "store")
        #expect(names.name(of: "todos.json.tmp") == "store")
        #expect(names.name(of: "todos.json.backup.tmp") == "backup")
        #expect(names.name(of: "backups/3.sqlite") == "backups")
        #expect(names.name(of: "") == "temporary")
        #expect(names.name(of: "/var/tmp/x1/cache.db") == "elsewhere")
        #expect(names.name(of: "journal-17.log") == "journal-N.log")
    }

    /// The same run again, told in other words or with calls made more often (a read
    /// asked again longer while the app recovered), is nothing new; another
    /// file a call went to, another fault it came after, another error, is.
    @Test func theSameRunTwiceIsNothingNewAndAnotherFileIs() {
        var corpus = HuntCorpus()
        let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: 3)
        let joined1 = corpus.admit(generator.schedule(0), RunSignature(report: Self.report, steps: Self.steps, files: Self.files))
        #expect(joined1)
        var again = Self.report
        again.steps[1].calls?[1].count = 40
        again.steps[1].detail = "other words"
        let joined2 = corpus.admit(generator.schedule(1), RunSignature(report: again, steps: Self.steps, files: Self.files))
        #expect(!joined2)
        var backup = Self.steps
        backup[0] = .fault("io-error", [HuntKey("file", .string("backup")), HuntKey("op", .string("write"))])
        let joined3 = corpus.admit(generator.schedule(2), RunSignature(report: Self.report, steps: backup, files: Self.files))
        #expect(joined3,
                "the same calls after a fault aimed at another file")
        var other = Self.report
        other.steps[2].appErrors = ["SQLite error 13: database or disk is full"]
        let joined4 = corpus.admit(generator.schedule(3), RunSignature(report: other, steps: Self.steps, files: Self.files))
        #expect(joined4)
        #expect(corpus.count == 3)
    }

    @Test func aScheduleJoinsTheCorpusForWhatNoRunReachedBefore() {
        let generator = HuntGenerator(surface: HuntGeneratorTests.surface, seed: 2)
        var corpus = HuntCorpus()
        let first = RunSignature(features: [.mode("persistent"), .failed("no-trap")])
        let joined5 = corpus.admit(generator.schedule(0), first)
        #expect(joined5)
        let joined6 = corpus.admit(generator.schedule(1), first)
        #expect(!joined6, "nothing new")
        let joined7 = corpus.admit(generator.schedule(2), RunSignature(features: [.mode("persistent")]))
        #expect(!joined7, "less is nothing new")
        let energy = corpus.energy(of: 0)
        let joined8 = corpus.admit(generator.schedule(3), RunSignature(features: [.mode("persistent"), .mode("in-memory")]), parents: [0])
        #expect(joined8)
        #expect(corpus.count == 2)
        #expect(corpus.energy(of: 0) > energy, "a parent whose child reached something new is picked more")
        var random = HuntDraws(seed: 1)
        var picks = [0, 0]
        for _ in 0..<200 { picks[corpus.pick(&random)] += 1 }
        #expect(picks[0] > picks[1], "\(picks)")
    }
}
