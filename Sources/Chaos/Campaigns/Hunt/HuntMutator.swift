import ChaosTarget

/// A guided hunt's new schedules from its corpus: a schedule changed a little, as AFL
/// changes an input that reached something new — a step inserted (a fresh action, fault
/// or end, drawn by the generator's own draws), a step dropped, two adjacent steps
/// swapped, a fault drawn again within its group, one key of a fault changed (the
/// declared file it aims at, the operation it fails, the count of its trigger:
/// ``retargeted(_:_:)``, ``reoperated(_:_:)``, ``recounted(_:_:)``), or two schedules
/// spliced (the start of one, the end of another). What comes out is mended into a
/// schedule the generator could have written (``repaired(_:)``) and closed as every
/// schedule is: a mutation explores near what worked, never the scenario format's
/// corners.
struct HuntMutator {
    var generator: HuntGenerator

    /// The most steps before the closing ones: the generator's longest schedule has 21;
    /// a child may grow a little past it, never without bound.
    static let maxRunSteps = 24

    enum Mutation: CaseIterable {
        case insert, drop, swap, redraw, retarget, reoperate, recount

        /// Its share of the mutations, in percent.
        var weight: Int {
            switch self {
            case .insert: 22
            case .drop: 22
            case .swap: 10
            case .redraw: 12
            case .retarget: 15
            case .reoperate: 7
            case .recount: 12
            }
        }
    }

    /// A child of `parent` for schedule `index` — spliced with `other` first when one is
    /// given — or nil when the draws gave back the parent or no run of the app.
    func mutate(_ parent: HuntSchedule, splicingWith other: HuntSchedule?, index: Int, _ random: inout HuntDraws) -> HuntSchedule? {
        var runs = Self.runs(of: parent.steps)
        var rounds = 1 + random.below(2)
        if let other {
            let theirs = Self.runs(of: other.steps)
            runs = Array(runs[..<random.below(runs.count + 1)]) + Array(theirs[random.below(theirs.count + 1)...])
            rounds -= 1
        }
        for _ in 0..<rounds {
            let mutation = random.pick(weighted: Mutation.allCases.map { ($0, $0.weight) })
            runs = apply(mutation, to: runs, system: parent.system, &random)
        }
        runs = Self.repaired(runs)
        guard runs.contains(.launch), runs.count <= Self.maxRunSteps else { return nil }
        let steps = HuntGenerator.closed(runs)
        guard steps != parent.steps else { return nil }
        return HuntSchedule(index: index, seed: generator.caseSeed(index), system: parent.system, steps: steps)
    }

    /// `runs` changed once by `mutation`; one that finds no step to change (a redraw with
    /// no fault in the schedule) inserts a step instead.
    func apply(_ mutation: Mutation, to runs: [WrittenStep], system: String, _ random: inout HuntDraws) -> [WrittenStep] {
        var runs = runs
        switch mutation {
        case .insert:
            let position = random.below(runs.count + 1)
            runs.insert(fresh(at: Lifecycle(runs[..<position]), system: system, &random), at: position)
        case .drop:
            if !runs.isEmpty { runs.remove(at: random.below(runs.count)) }
        case .swap:
            guard runs.count > 1 else { break }
            let at = random.below(runs.count - 1)
            runs.swapAt(at, at + 1)
        case .redraw:
            return changingOne(of: runs, system: system, &random) { step, at, random in
                step.injects ? redrawn(step, appIsClosed: !Lifecycle(runs[..<at]).running, &random) : nil
            }
        case .retarget:
            return changingOne(of: runs, system: system, &random) { step, _, random in retargeted(step, &random) }
        case .reoperate:
            return changingOne(of: runs, system: system, &random) { step, _, random in reoperated(step, &random) }
        case .recount:
            return changingOne(of: runs, system: system, &random) { step, _, random in recounted(step, &random) }
        }
        return runs
    }

    /// `runs` with one of its steps changed by `change` (given the step and its position),
    /// among those it changes at all (nil: not one it applies to, found with draws of its
    /// own, so that looking costs the schedule's draws nothing); with none, a step inserted.
    private func changingOne(of runs: [WrittenStep], system: String, _ random: inout HuntDraws,
                             _ change: (WrittenStep, Int, inout HuntDraws) -> WrittenStep?) -> [WrittenStep] {
        let candidates = runs.indices.filter { at in
            var probe = HuntDraws(seed: 0)
            return change(runs[at], at, &probe) != nil
        }
        guard !candidates.isEmpty else { return apply(.insert, to: runs, system: system, &random) }
        var runs = runs
        let at = random.pick(candidates)
        runs[at] = change(runs[at], at, &random) ?? runs[at]
        return runs
    }

    /// A step drawn as the generator draws one where the app stands: while it runs, an
    /// action, a fault on the running app or an end of the run (a stop while a cut waits
    /// for its moment); while it is closed, a fault on the closed app, or an action
    /// (which a launch will come before: a run more).
    func fresh(at life: Lifecycle, system: String, _ random: inout HuntDraws) -> WrittenStep {
        let roll = random.below(100)
        guard life.running else {
            return roll < 70 ? generator.closedAppFault(afterFirstRun: life.launches > 0, &random) : generator.action(in: system, &random)
        }
        if roll < 55 { return generator.action(in: system, &random) }
        if roll < 90 { return generator.runningAppFault(&random) }
        return life.cutWaits ? .stop : generator.runEnd(&random)
    }

    /// A fault drawn again in its group, every key with it (what it acts on, how and
    /// when); a cut at a later moment drawn again as one, a cut now in another mode.
    func redrawn(_ step: WrittenStep, appIsClosed: Bool, _ random: inout HuntDraws) -> WrittenStep {
        switch step {
        case let .fault(kind, _):
            guard let group = (FaultCatalog.kind(named: kind) as? any HuntedFault.Type)?.huntGroup else { return step }
            return generator.fault(in: group, appIsClosed: appIsClosed, &random)
        case let .powerLoss(_, moment) where moment.isEmpty:
            return .powerLoss(random.pick(HuntGenerator.cutModes), nil)
        case .powerLoss:
            return generator.powerCut(&random)
        default:
            return step
        }
    }

    /// A schedule's steps before its closing ones (the clear of every fault, the launch
    /// and the read): its runs of the app.
    static func runs(of steps: [WrittenStep]) -> [WrittenStep] {
        var runs = steps
        if runs.suffix(2) == [.launch, HuntSchedule.closingRead] { runs.removeLast(2) }
        if runs.last == .clear("all") { runs.removeLast() }
        return runs
    }
}

extension WrittenStep {
    /// The keys of a fault step; none for any other step.
    var faultKeys: [HuntKey] {
        if case let .fault(_, keys) = self { keys } else { [] }
    }
}
