import ChaosTarget
import FaultPoints

/// Writes schedule `index` of a hunt from its seed: one to three runs of the app, each
/// begun with a launch (and, before it, the odd fault on the closed app: its files
/// damaged, its disk full, its remote gone), then the target's actions with seeded
/// arguments and faults of every family that reaches it, each run ended by a graceful
/// stop, a kill or a power cut; then a clear of every fault, a launch and a read, which
/// the oracle times. The same seed and index give the same schedule on every machine
/// (``SplitMix64``, never the standard library's sampling).
package struct HuntGenerator: Sendable {
    package var surface: HuntSurface
    package var seed: UInt64
    /// What a hunt aimed at one crash leans towards; none for an ordinary hunt.
    package var aim = HuntAim()

    package init(surface: HuntSurface, seed: UInt64, aim: HuntAim = HuntAim()) {
        self.surface = surface
        self.seed = seed
        self.aim = aim
    }

    package func schedule(_ index: Int) -> HuntSchedule {
        var random = HuntDraws(seed: SplitMix64.subseed(seed, "hunt/schedule/\(index)"))
        let system = random.pick(surface.systems)
        var steps: [WrittenStep] = []
        var armed: [String] = []
        let runs = 1 + random.below(3)
        for run in 0..<runs {
            if random.chance(run == 0 ? 25 : 45) {
                let fault = closedAppFault(afterFirstRun: run > 0, &random)
                steps.append(fault)
                if case let .fault(kind, _) = fault { armed.append(kind) }
            }
            steps.append(.launch)
            var deferredCut = false
            for _ in 0..<(1 + random.below(4)) {
                let roll = random.below(100)
                if roll < 58 {
                    steps.append(action(in: system, &random))
                } else if roll < 90 {
                    let fault = runningAppFault(&random)
                    steps.append(fault)
                    if case let .fault(kind, _) = fault { armed.append(kind) }
                    if case let .powerLoss(_, moment) = fault, !moment.isEmpty { deferredCut = true }
                } else if let kind = armed.last {
                    let scope = random.chance(50) ? kind : "all"
                    steps.append(.clear(scope))
                    armed.removeAll { scope == "all" || $0 == kind }
                } else {
                    steps.append(action(in: system, &random))
                }
            }
            // A cut still waiting for its moment is called off by a stop; any other end
            // may come while it waits.
            if deferredCut { steps.append(.stop); continue }
            steps.append(runEnd(&random))
        }
        return HuntSchedule(index: index, seed: caseSeed(index), system: system, steps: Self.closed(steps))
    }

    static let cutModes = ["drop", "keep", "torn"]

    /// A case seed a person can type: six digits, drawn from the hunt's seed.
    func caseSeed(_ index: Int) -> UInt64 {
        SplitMix64.subseed(seed, "hunt/case/\(index)") % 1_000_000
    }

    /// The runs of a schedule, closed as every schedule is: every fault cleared (when any
    /// was injected), a launch, and the read the oracle times recovery by.
    static func closed(_ runs: [WrittenStep]) -> [WrittenStep] {
        runs + (runs.contains(where: \.injects) ? [.clear("all")] : []) + [.launch, HuntSchedule.closingRead]
    }

    /// How a run ends when no cut waits for its moment: a graceful stop, a kill or a power
    /// cut now (a kill for a target that keeps no files).
    func runEnd(_ random: inout HuntDraws) -> WrittenStep {
        let cut: WrittenStep = surface.files.isEmpty ? .kill : .powerLoss(random.pick(Self.cutModes), nil)
        switch random.below(3) {
        case 0: return .stop
        case 1: return random.chance(50) ? .kill : cut
        default: return cut
        }
    }

    /// An action: the workload's write and read as often as any other, the schedule's
    /// system's own twice as often as the rest.
    func action(in system: String, _ random: inout HuntDraws) -> WrittenStep {
        let workload: [(HuntSurface.Action?, Int)] = [(nil, 6)]
        let others = surface.actions.map { action -> (HuntSurface.Action?, Int) in
            (action, (action.system == system ? 4 : action.system == nil ? 2 : 1) * (aim.actions.contains(action.name) ? 6 : 1))
        }
        guard let chosen = random.pick(weighted: workload + others) else {
            let name = random.chance(60) ? "write" : "read"
            let count: [HuntKey] = name == "write" && random.chance(30) ? [HuntKey("count", .int(1 + random.below(3)))] : []
            return .action(Workload.actionPrefix + name, name == "write" && declaresCount(surface.workload.write) ? count : [])
        }
        // Every declared argument, given: a target may refuse a call that leaves one out
        // (that is its contract, not a failure); the shrinker drops those it can.
        let arguments = chosen.parameters.map { HuntKey($0.name, HuntSurface.value(for: $0, &random)) }
        return .action(chosen.name, arguments)
    }

    /// Whether the workload's write takes a `count`.
    private func declaresCount(_ name: String) -> Bool {
        surface.actions.first { $0.name == name }?.parameters.contains { $0.name == "count" } ?? false
    }

    /// A fault while the app is closed: its files damaged (once a run has made them), a
    /// storage fault or a full disk waiting for the launch, a move of its clock, its
    /// remote down.
    func closedAppFault(afterFirstRun: Bool, _ random: inout HuntDraws) -> WrittenStep {
        let keepsFiles = !surface.files.isEmpty
        var choices: [(HuntGroup, Int)] = [(.storage, aim.weigh(.storage, keepsFiles ? 2 : 0)), (.diskFull, aim.weigh(.diskFull, keepsFiles ? 1 : 0)),
                                           (.clock, aim.weigh(.clock, 1))]
        if afterFirstRun && !surface.damageableFiles.isEmpty { choices.append((.fileDamage, aim.weigh(.fileDamage, 7))) }
        if !surface.remotes.isEmpty { choices.append((.network, aim.weigh(.network, 1))) }
        return fault(in: random.pick(weighted: choices), appIsClosed: true, &random)
    }

    /// A fault while the app runs: a storage error, a throw or a context reset at a point
    /// its code hit, a network fault, a jump of its clock, a power cut at a later write,
    /// another process on its shared store.
    func runningAppFault(_ random: inout HuntDraws) -> WrittenStep {
        // A target that keeps no files (its data is on a remote) has nothing for storage
        // faults and power cuts to act on.
        let keepsFiles = !surface.files.isEmpty
        var choices: [(HuntGroup, Int)] = [(.storage, aim.weigh(.storage, keepsFiles ? 5 : 0)), (.diskFull, aim.weigh(.diskFull, keepsFiles ? 1 : 0)),
                                           (.clock, aim.weigh(.clock, 1)), (.powerCut, aim.weigh(.powerCut, keepsFiles ? 1 : 0))]
        if !surface.points.isEmpty { choices.append((.point, aim.weigh(.point, 5))) }
        if !surface.remotes.isEmpty { choices.append((.network, aim.weigh(.network, 3))) }
        if keepsFiles, surface.sharesItsStore { choices.append((.peer, aim.weigh(.peer, 1))) }
        let group = random.pick(weighted: choices)
        guard group != .powerCut else { return powerCut(&random) }
        return fault(in: group, appIsClosed: false, &random)
    }

    /// A power cut at a later write or sync of the running app, in one of the cut modes.
    func powerCut(_ random: inout HuntDraws) -> WrittenStep {
        let moment = random.chance(60) ? HuntKey("after-writes", .int(1 + random.below(12))) : HuntKey("at-sync", .int(1 + random.below(4)))
        return .powerLoss(random.pick(Self.cutModes), moment)
    }

    /// A fault of `group`: what the group's kinds act on, drawn once for all of them (a
    /// file, a point the plain run saw hit, a remote when there are several), then one of
    /// its kinds — those that fire a few times one time in five — and that kind's keys.
    func fault(in group: HuntGroup, appIsClosed: Bool, _ random: inout HuntDraws) -> WrittenStep {
        var shared: [HuntKey] = []
        var kinds = FaultCatalog.hunted(in: group)
        switch group {
        case .fileDamage:
            let files = surface.damageableFiles
            let file = random.chance(70) ? files[0] : random.pick(files)
            shared = [HuntKey("file", .string(file))]
            if surface.folders.contains(file) { kinds = kinds.filter { $0.actsOnFolders } }
        case .point:
            shared = [HuntKey("point", .string(random.pick(surface.points)))]
        case .network:
            if surface.remotes.count > 1 { shared = [HuntKey("remote", .string(random.pick(surface.remotes)))] }
        case .storage:
            // One of several declared files, half the time: a store and its safety copy are
            // written by the same code one after the other, and a defect may hide in the
            // copy alone (its write fails while the store's succeeds). A full disk is the
            // whole disk's.
            if surface.files.count > 1, random.chance(50) { shared = [HuntKey("file", .string(random.pick(surface.files)))] }
        case .diskFull, .clock, .powerCut, .peer:
            break
        }
        let fewTimes = kinds.filter { $0.firesAFewTimes }
        let others = kinds.filter { !$0.firesAFewTimes }
        if !fewTimes.isEmpty, !others.isEmpty { kinds = random.pick(weighted: [(fewTimes, 20), (others, 80)]) }
        let kind = kinds.count == 1 ? kinds[0] : random.pick(weighted: kinds.map { ($0, $0.huntWeight) })
        let situation = HuntSituation(appIsClosed: appIsClosed, storageOperations: surface.storageOperations)
        return .fault(kind.kind, shared + kind.huntKeys(&random, situation))
    }
}
