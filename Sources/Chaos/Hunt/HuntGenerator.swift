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
        var random = SplitMix64(seed: SplitMix64.subseed(seed, "hunt/schedule/\(index)"))
        let system = random.pick(surface.systems)
        var steps: [HuntStep] = []
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
                    if case .powerLoss(_, _?) = fault { deferredCut = true }
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
            let cut: HuntStep = surface.files.isEmpty ? .kill : .powerLoss(random.pick(Self.cutModes), nil)
            switch random.below(3) {
            case 0: steps.append(.stop)
            case 1: steps.append(random.chance(50) ? .kill : cut)
            default: steps.append(cut)
            }
        }
        if steps.contains(where: \.injects) { steps.append(.clear("all")) }
        steps += [.launch, HuntSchedule.closingRead]
        // A case seed a person can type: six digits, drawn from the hunt's seed.
        let caseSeed = SplitMix64.subseed(seed, "hunt/case/\(index)") % 1_000_000
        return HuntSchedule(index: index, seed: caseSeed, system: system, steps: steps)
    }

    static let cutModes = ["drop", "keep", "torn"]

    /// Faults the hunt fires a few times, never for ever (``HuntShrinker`` keeps their
    /// count): a lock another process holds for good is no fault an app recovers from
    /// within 5 s — SQLite itself retries a WAL read for about 10 s before it gives up —
    /// and a file reads short only at its end: short on every read while its size says
    /// otherwise is a state no file system presents (SQLite's WAL reader loops on it the
    /// same 10 s).
    static let countedKinds: Set<String> = ["busy", "short-read"]

    /// An action: the workload's write and read as often as any other, the schedule's
    /// system's own twice as often as the rest.
    func action(in system: String, _ random: inout SplitMix64) -> HuntStep {
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
    /// storage fault or a full disk waiting for the launch, its remote down.
    func closedAppFault(afterFirstRun: Bool, _ random: inout SplitMix64) -> HuntStep {
        let files = surface.damageableFiles
        let keepsFiles = !surface.files.isEmpty
        var choices: [(Int, Int)] = [(0, aim.weigh(.storage, keepsFiles ? 2 : 0)), (1, aim.weigh(.diskFull, keepsFiles ? 1 : 0)),
                                     (2, aim.weigh(.clock, 1))]
        if afterFirstRun && !files.isEmpty { choices.append((3, aim.weigh(.fileDamage, 7))) }
        if !surface.remotes.isEmpty { choices.append((4, aim.weigh(.network, 1))) }
        switch random.pick(weighted: choices) {
        case 0: return storageFault(&random)
        case 1: return .fault("disk-full", random.chance(70) ? [] : [HuntKey("mechanism", .string("tmpfs"))])
        case 2: return .fault("clock-jump", [HuntKey("by", .string(random.pick(Self.jumps)))])
        case 3: return fileDamage(files, &random)
        default: return networkFault(&random)
        }
    }

    static let jumps = ["-1h", "+1h", "-24h", "+720h", "-30s"]
    static let damages = ["garbage-header", "flip-bytes", "zero-pages", "truncate", "zero-length", "header-only"]

    func fileDamage(_ files: [String], _ random: inout SplitMix64) -> HuntStep {
        let file = random.chance(70) ? files[0] : random.pick(files)
        if surface.folders.contains(file) { return .fault("delete-file", [HuntKey("file", .string(file))]) }
        switch random.below(10) {
        case 0..<6:
            let how = random.pick(Self.damages)
            var keys = [HuntKey("file", .string(file)), HuntKey("how", .string(how))]
            // As the storage catalog flips them: enough bytes to reach the pages SQLite
            // checks. A few bits flipped inside a row's text are a change no app can tell
            // from an edit without checksums of its own (a hunt found one in Sync's notes).
            if how == "flip-bytes" { keys.append(HuntKey("bytes", .int(1024))) }
            return .fault("corrupt-file", keys)
        case 6..<8: return .fault("delete-file", [HuntKey("file", .string(file))])
        default: return .fault("read-only", [HuntKey("file", .string(file))])
        }
    }

    /// A fault while the app runs: a storage error, a throw or a context reset at a point
    /// its code hit, a network fault, a jump of its clock, a power cut at a later write.
    func runningAppFault(_ random: inout SplitMix64) -> HuntStep {
        // A target that keeps no files (its data is on a remote) has nothing for storage
        // faults and power cuts to act on.
        let keepsFiles = !surface.files.isEmpty
        var choices: [(Int, Int)] = [(0, aim.weigh(.storage, keepsFiles ? 5 : 0)), (1, aim.weigh(.diskFull, keepsFiles ? 1 : 0)),
                                     (2, aim.weigh(.clock, 1)), (3, aim.weigh(.powerCut, keepsFiles ? 1 : 0))]
        if !surface.points.isEmpty { choices.append((4, aim.weigh(.point, 5))) }
        if !surface.remotes.isEmpty { choices.append((5, aim.weigh(.network, 3))) }
        switch random.pick(weighted: choices) {
        case 0: return storageFault(&random)
        case 1: return .fault("disk-full", [])
        case 2: return .fault("clock-jump", [HuntKey("by", .string(random.pick(Self.jumps)))])
        case 3:
            let moment = random.chance(60) ? HuntKey("after-writes", .int(1 + random.below(12))) : HuntKey("at-sync", .int(1 + random.below(4)))
            return .powerLoss(random.pick(Self.cutModes), moment)
        case 4:
            let point = random.pick(surface.points)
            let kind = random.chance(80) ? "throw" : "reset-context"
            return .fault(kind, [HuntKey("point", .string(point))] + trigger(&random))
        default: return networkFault(&random)
        }
    }

    func storageFault(_ random: inout SplitMix64) -> HuntStep {
        if random.chance(20) {
            return .fault(random.chance(50) ? "busy" : "short-read", [HuntKey("times", .int(1 + random.below(3)))])
        }
        return .fault("io-error", [HuntKey("op", .string(random.pick(surface.storageOperations)))] + trigger(&random))
    }

    func networkFault(_ random: inout SplitMix64) -> HuntStep {
        let remote: [HuntKey] = surface.remotes.count > 1 ? [HuntKey("remote", .string(random.pick(surface.remotes)))] : []
        switch random.below(5) {
        case 0: return .fault("network-down", remote)
        case 1: return .fault("blackhole", remote + trigger(&random))
        case 2: return .fault("reset-peer", remote + [HuntKey("after-bytes", .int(0)), HuntKey("direction", .string("downstream"))] + trigger(&random))
        case 3: return .fault("limit-data", remote + [HuntKey("bytes", .int(random.pick([0, 10, 40, 100])))] + trigger(&random))
        default: return .fault("latency", remote + [HuntKey("latency", .string("300ms"))] + trigger(&random))
        }
    }

    /// When a repeating fault fires: always, or after a few hits, a few times.
    func trigger(_ random: inout SplitMix64) -> [HuntKey] {
        var keys: [HuntKey] = []
        if random.chance(35) { keys.append(HuntKey("after", .int(1 + random.below(3)))) }
        if random.chance(60) { keys.append(HuntKey("times", .int(1 + random.below(3)))) }
        return keys
    }
}
