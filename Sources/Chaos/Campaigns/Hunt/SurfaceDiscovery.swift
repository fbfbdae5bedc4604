import ChaosTarget
import Foundation

/// The plain first run of a hunt: each action of the target once, between a write and a
/// read of its workload, with no fault, every worker naming the fault points it hits.
/// One case an action (run `jobs` at a time), so that an action that traps (a fragile
/// variant's) hides no other's points. The points hit are what the hunt's throws and
/// context resets aim at; its slowest launch and slowest action are what the hunt's step
/// bound is learnt from.
struct SurfaceDiscovery {
    var runner: HuntRunner
    var workload: Workload

    /// What the plain run found, how many cases it ran, and the bound it learnt.
    struct Discovered {
        var surface: HuntSurface
        var cases: Int
        var stepBound: StepBound
    }

    func discover() -> Discovered {
        let declaration = runner.options.target.declaration
        var counting = runner.plan
        counting.countPoints = true
        let systems = Dictionary(HuntSurface(declaration: declaration, workload: workload, points: []).actions.map { ($0.name, $0.system) }) { first, _ in first }
        let schedules = declaration.actions.enumerated().map { index, name -> HuntSchedule in
            let arguments = (declaration.parameters[name] ?? []).map { HuntKey($0.name, HuntSurface.plainValue(for: $0)) }
            let steps: [WrittenStep] = [.launch, .action(Workload.actionPrefix + "write", []), .action(name, arguments),
                                     .action(Workload.actionPrefix + "read", []), .stop]
            let system = systems[name].flatMap { $0 } ?? ScenarioTargetCheck.storageSystem
            return HuntSchedule(index: index, seed: runner.seed, system: system, steps: steps)
        }
        let folders = folderFiles(declaration: declaration)
        var points = Set<String>()
        var slowest = (launchMs: 0, actionMs: 0)
        TrialPool<HuntSchedule, (Set<String>, (launchMs: Int, actionMs: Int))>(jobs: runner.jobs).run(
            trial: { $0 < schedules.count ? schedules[$0] : nil },
            run: { schedule, slot in
                guard let scenario = try? schedule.scenario(name: "hunt-plain-\(schedule.index)", summary: "plain run", file: "hunt/plain.yaml"),
                      ScenarioTargetCheck.problems(scenario, target: declaration).isEmpty else { return ([], (0, 0)) }
                let plain = CaseRunner(scenario: scenario, options: runner.options, plan: counting.holding(slot)).run()
                // Step records are numbered from 1, in the schedule's order.
                func slowest(_ kind: (WrittenStep) -> Bool) -> Int {
                    plain.steps.filter { schedule.steps.indices.contains($0.index - 1) && kind(schedule.steps[$0.index - 1]) }
                        .map(\.durationMs).max() ?? 0
                }
                return (Set(plain.pointsReached ?? []), (slowest { $0 == .launch }, slowest { if case .action = $0 { true } else { false } }))
            },
            consume: { _, _, result in
                points.formUnion(result.0)
                slowest = (max(slowest.launchMs, result.1.launchMs), max(slowest.actionMs, result.1.actionMs))
                return true
            })
        var surface = HuntSurface(declaration: declaration, workload: workload, points: points.sorted())
        surface.folders = folders
        return Discovered(surface: surface, cases: schedules.count,
                          stepBound: .learnt(slowestLaunchMs: slowest.launchMs, slowestActionMs: slowest.actionMs))
    }

    /// The declared files that are folders once the app has run (`backups`): a file
    /// damage cannot garble or lock a folder, only delete it. Learnt from one plain
    /// launch, write, read and stop, its data folder looked at, then removed.
    func folderFiles(declaration: TargetDeclaration) -> [String] {
        let steps: [WrittenStep] = [.launch, .action(Workload.actionPrefix + "write", []), .stop, .launch, HuntSchedule.closingRead, .stop]
        let schedule = HuntSchedule(index: 0, seed: runner.seed, system: ScenarioTargetCheck.storageSystem, steps: steps)
        guard let scenario = try? schedule.scenario(name: "hunt-plain-files", summary: "plain run", file: "hunt/plain.yaml") else { return [] }
        var keeping = runner.options
        keeping.keepScratch = true
        let plain = CaseRunner(scenario: scenario, options: keeping, plan: runner.plan)
        _ = plain.run()
        defer { try? FileManager.default.removeItem(at: plain.scratchDirectory) }
        let data = plain.scratchDirectory.appendingPathComponent("data")
        return declaration.files.compactMap { name, path in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: data.appendingPathComponent(path).path, isDirectory: &isFolder)
            return exists && isFolder.boolValue ? name : nil
        }.sorted()
    }
}
