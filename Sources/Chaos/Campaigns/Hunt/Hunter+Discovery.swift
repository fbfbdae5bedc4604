import ChaosTarget
import Foundation

extension Hunter {
    /// The plain first run: each action of the target once, between a write and a read
    /// of its workload, with no fault, every worker naming the fault points it hits.
    /// One case an action (run `jobs` at a time), so that an action that traps (a
    /// fragile variant's) hides no other's points. The points hit are what the hunt's throws
    /// and context resets aim at.
    /// Its slowest launch and slowest action are what the hunt's step bound is learnt from.
    func discoverSurface(workload: Workload) -> (surface: HuntSurface, cases: Int, slowest: (launchMs: Int, actionMs: Int)) {
        let declaration = options.target.declaration
        var countingOptions = caseOptions
        countingOptions.countPoints = true
        let systems = Dictionary(HuntSurface(declaration: declaration, workload: workload, points: []).actions.map { ($0.name, $0.system) }) { first, _ in first }
        let schedules = declaration.actions.enumerated().map { index, name -> HuntSchedule in
            let arguments = (declaration.parameters[name] ?? []).map { HuntKey($0.name, HuntSurface.plainValue(for: $0)) }
            let steps: [HuntStep] = [.launch, .action(Workload.actionPrefix + "write", []), .action(name, arguments),
                                     .action(Workload.actionPrefix + "read", []), .stop]
            let system = systems[name].flatMap { $0 } ?? ScenarioTargetCheck.storageSystem
            return HuntSchedule(index: index, seed: seed, system: system, steps: steps)
        }
        let folders = folderFiles(declaration: declaration)
        var points = Set<String>()
        var slowest = (launchMs: 0, actionMs: 0)
        TrialPool<HuntSchedule, (Set<String>, (launchMs: Int, actionMs: Int))>(jobs: jobs).run(
            trial: { $0 < schedules.count ? schedules[$0] : nil },
            run: { schedule in
                guard let scenario = try? schedule.scenario(name: "hunt-plain-\(schedule.index)", summary: "plain run", file: "hunt/plain.yaml"),
                      ScenarioTargetCheck.problems(scenario, target: declaration).isEmpty else { return ([], (0, 0)) }
                let runner = CaseRunner(scenario: scenario, options: countingOptions)
                _ = runner.run()
                // Step records are numbered from 1, in the schedule's order.
                func slowest(_ kind: (HuntStep) -> Bool) -> Int {
                    runner.log.steps.filter { schedule.steps.indices.contains($0.index - 1) && kind(schedule.steps[$0.index - 1]) }
                        .map(\.durationMs).max() ?? 0
                }
                return (runner.log.pointsHit, (slowest { $0 == .launch }, slowest { if case .action = $0 { true } else { false } }))
            },
            consume: { _, _, result in
                points.formUnion(result.0)
                slowest = (max(slowest.launchMs, result.1.launchMs), max(slowest.actionMs, result.1.actionMs))
                return true
            })
        var surface = HuntSurface(declaration: declaration, workload: workload, points: points.sorted())
        surface.folders = folders
        return (surface, schedules.count, slowest)
    }

    /// The declared files that are folders once the app has run (`backups`): a file
    /// damage cannot garble or lock a folder, only delete it. Learnt from one plain
    /// launch, write, read and stop, its data folder looked at, then removed.
    func folderFiles(declaration: TargetDeclaration) -> [String] {
        let steps: [HuntStep] = [.launch, .action(Workload.actionPrefix + "write", []), .stop, .launch, HuntSchedule.closingRead, .stop]
        let schedule = HuntSchedule(index: 0, seed: seed, system: ScenarioTargetCheck.storageSystem, steps: steps)
        guard let scenario = try? schedule.scenario(name: "hunt-plain-files", summary: "plain run", file: "hunt/plain.yaml") else { return [] }
        var keeping = caseOptions
        keeping.keepScratch = true
        let runner = CaseRunner(scenario: scenario, options: keeping)
        _ = runner.run()
        defer { try? FileManager.default.removeItem(at: runner.scratchDirectory) }
        let data = runner.scratchDirectory.appendingPathComponent("data")
        return declaration.files.compactMap { name, path in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: data.appendingPathComponent(path).path, isDirectory: &isFolder)
            return exists && isFolder.boolValue ? name : nil
        }.sorted()
    }
}
