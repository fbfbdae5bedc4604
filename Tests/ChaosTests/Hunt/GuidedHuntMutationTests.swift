@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// Each of a guided hunt's mutations alone, on the built-in app's surface: it changes
/// what it says it changes (the declared file a fault aims at, its operation, its
/// trigger's count), within what the generator draws, and every schedule it makes is
/// one the scenario format and the target take.
@Suite @MainActor struct GuidedHuntMutationTests {
    static let surface = HuntGeneratorTests.surface
    static let mutator = HuntMutator(generator: HuntGenerator(surface: surface, seed: 11))

    static func draws(_ index: Int) -> HuntDraws { HuntDraws(seed: SplitMix64.subseed(11, "test/mutation/\(index)")) }

    static func file(of step: WrittenStep?) -> String? {
        step?.faultKeys.first { $0.key == "file" }?.value.stringValue
    }

    @Test func everyMutationAloneMakesSchedulesTheTargetTakes() {
        let generator = Self.mutator.generator
        for mutation in HuntMutator.Mutation.allCases {
            var changed = 0
            for index in 0..<60 {
                let parent = generator.schedule(index)
                var random = Self.draws(index)
                let runs = HuntMutator.repaired(Self.mutator.apply(mutation, to: HuntMutator.runs(of: parent.steps), system: parent.system, &random))
                guard runs.contains(.launch) else { continue }
                let child = HuntSchedule(index: 100 + index, seed: 1, system: parent.system, steps: HuntGenerator.closed(runs))
                if child.steps != parent.steps { changed += 1 }
                #expect(GuidedHuntTests.problems(of: child).isEmpty, "\(mutation) of \(index): \(GuidedHuntTests.problems(of: child))")
                #expect(GuidedHuntTests.accepts(child), "\(mutation) of \(index) is refused: \(child.steps)")
            }
            #expect(changed >= 40, "\(mutation) changed \(changed) of 60 schedules")
        }
    }

    /// A storage fault is aimed at each of the target's declared files, or at none (every
    /// file), never at the one it had; damage to a file at another file it may damage.
    @Test func retargetingMovesAFaultAmongTheDeclaredFiles() throws {
        let aimed = WrittenStep.fault("io-error", [HuntKey("file", .string("store")), HuntKey("op", .string("sync")), HuntKey("times", .int(1))])
        var reached: Set<String?> = []
        for index in 0..<200 {
            var random = Self.draws(index)
            let step = try #require(Self.mutator.retargeted(aimed, &random))
            guard case let .fault(kind, keys) = step else { Issue.record("\(step)"); continue }
            #expect(kind == "io-error" && keys.filter { $0.key != "file" } == aimed.faultKeys.filter { $0.key != "file" }, "only the file changes")
            reached.insert(Self.file(of: step))
        }
        #expect(reached == Set([nil] + Self.surface.files.filter { $0 != "store" }), "\(reached)")

        var random = Self.draws(0)
        let unaimed = try #require(Self.mutator.retargeted(.fault("io-error", [HuntKey("op", .string("write"))]), &random))
        #expect(unaimed.faultKeys.first?.key == "file", "the file put first, as the generator writes it")
        let damage = WrittenStep.fault("delete-file", [HuntKey("file", .string("store"))])
        let moved = try #require(Self.mutator.retargeted(damage, &random))
        #expect(Self.file(of: moved).map { Self.surface.damageableFiles.contains($0) && $0 != "store" } == true)
        #expect(Self.mutator.retargeted(.fault("clock-jump", []), &random) == nil)
        #expect(Self.mutator.retargeted(.launch, &random) == nil)
    }

    @Test func reoperatingFailsAnotherOperationOfTheSeam() throws {
        for index in 0..<50 {
            var random = Self.draws(index)
            let step = try #require(Self.mutator.reoperated(.fault("io-error", [HuntKey("op", .string("sync"))]), &random))
            let op = step.faultKeys.first?.value.stringValue
            #expect(op != "sync" && op.map(Self.surface.storageOperations.contains) == true, "\(step)")
        }
        var random = Self.draws(0)
        #expect(Self.mutator.reoperated(.fault("busy", [HuntKey("times", .int(2))]), &random) == nil)
    }

    /// A count moves by one or two and stays where the generator draws it: `times` of a
    /// kind that fires a few times at most 3, a cut at one of the first four syncs.
    @Test func recountingMovesATriggerCountWithinItsRange() throws {
        for index in 0..<100 {
            var random = Self.draws(index)
            let busy = try #require(Self.mutator.recounted(.fault("busy", [HuntKey("times", .int(3))]), &random))
            #expect([HuntKey("times", .int(1)), HuntKey("times", .int(2))].contains(busy.faultKeys[0]), "\(busy)")
            let cut = try #require(Self.mutator.recounted(.powerLoss("drop", [HuntKey("at-sync", .int(4))]), &random))
            guard case let .powerLoss(mode, keys) = cut, case let .int(sync) = keys[0].value else { Issue.record("\(cut)"); continue }
            #expect(mode == "drop" && (2...3).contains(sync), "\(cut)")
        }
        var random = Self.draws(0)
        let always = try #require(Self.mutator.recounted(.fault("io-error", [HuntKey("op", .string("write"))]), &random))
        #expect(always.faultKeys.count == 2 && ["times", "after"].contains(always.faultKeys[1].key), "a count given to a fault with none")
        #expect(Self.mutator.recounted(.powerLoss("drop", []), &random) == nil, "a cut now has no count")
        #expect(Self.mutator.recounted(.launch, &random) == nil)
    }
}

/// A schedule that deletes every declared file while the app is closed is a new install,
/// which no app can tell from a first launch: the hunt never runs one (a guided hunt
/// spliced a deletion of a to-do list with one of its backup and called the empty list a
/// silent loss). An app that keeps a single file is still held to its deletion.
@Suite struct NewInstallScheduleTests {
    static func delete(_ file: String?) -> WrittenStep {
        .fault("delete-file", file.map { [HuntKey("file", .string($0))] } ?? [])
    }

    static func schedule(_ steps: [WrittenStep]) -> HuntSchedule {
        HuntSchedule(index: 0, seed: 1, system: "storage", steps: HuntGenerator.closed(steps))
    }

    @Test func deletingEveryDeclaredFileAtOnceIsANewInstall() {
        let files: Set = ["store", "backup"]
        let run: [WrittenStep] = [.launch, .action("workload.write", []), .stop]
        #expect(Self.schedule(run + [Self.delete(nil), Self.delete("backup")]).deletesEvery(files))
        #expect(Self.schedule(run + [Self.delete("backup"), Self.delete("store")]).deletesEvery(files))
        // A launch between the two lets the app see one file gone and the other there.
        #expect(!Self.schedule(run + [Self.delete(nil), .launch, .stop, Self.delete("backup")]).deletesEvery(files))
        #expect(!Self.schedule(run + [Self.delete(nil)]).deletesEvery(files))
        #expect(!Self.schedule(run + [Self.delete(nil), .fault("corrupt-file", [HuntKey("file", .string("backup"))])]).deletesEvery(files))
        // One file kept, one file deleted: the app owed a trace elsewhere.
        #expect(!Self.schedule(run + [Self.delete(nil)]).deletesEvery(["store"]))
    }
}
