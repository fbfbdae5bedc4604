import ChaosTarget

/// The faults that were at work in a failing case, by family and by what they acted on:
/// what tells one cause of a hang or a loss from another. A hang is told by the fault
/// that started it (the network on `postgres`, a storage fault on `store`), whatever
/// launch, action or read it struck; a loss by the families of the faults that fired
/// (a power cut, file damage, a kill) — shrinking then leaves only those it needs.
struct FaultsAtWork {
    /// One fault that fired: its family's word, what it acted on, the step that armed it.
    struct Fault: Equatable {
        var family: Family
        var kind: String
        /// The remote, file or point it acted on, when it names one.
        var on: String?
        /// The scenario step that armed it (from 1).
        var step: Int

        /// `a network fault on postgres`, `file damage to store`, `a power cut`.
        var phrase: String {
            switch family {
            case .network: "a network fault" + (on.map { " on \($0)" } ?? "")
            case .storage: "a storage fault" + (on.map { " on \($0)" } ?? "")
            case .point: "a fault point" + (on.map { " (\($0))" } ?? "")
            case .power: "a power cut"
            case .file: "file damage" + (on.map { " to \($0)" } ?? "")
            case .clock: "a clock jump"
            case .peer: "another process on the store"
            case .kill: "a kill"
            }
        }
    }

    /// The families, in the order a hang is blamed on them: what keeps a request waiting
    /// first (the network, the disk, the app's own code), what only changed the world
    /// around it last (damage done while the app was closed, the clock).
    enum Family: Int, Comparable {
        case network, storage, peer, point, power, file, clock, kill

        static func < (lhs: Family, rhs: Family) -> Bool { lhs.rawValue < rhs.rawValue }

        init(_ family: FaultFamily) {
            switch family {
            case .network: self = .network
            case .storage: self = .storage
            case .point: self = .point
            case .file: self = .file
            case .clock: self = .clock
            case .power: self = .power
            case .peer: self = .peer
            }
        }
    }

    /// Every fault of the case that fired (and every kill), in step order.
    let fired: [Fault]
    /// The clears of the schedule: the step (from 1) and what it named.
    private let clears: [(step: Int, scope: String)]

    /// `remotes`: the target's remotes, so that a network fault that names none is said
    /// to act on the only one.
    init(report: CaseReport, steps: [WrittenStep], remotes: [String]) {
        var fired: [Fault] = []
        for activity in report.faults ?? [] where activity.fired > 0 {
            guard let number = activity.step else { continue }
            let keys: [HuntKey] = if steps.indices.contains(number - 1), case let .fault(_, keys) = steps[number - 1] { keys } else { [] }
            func key(_ name: String) -> String? {
                if case let .string(value)? = keys.first(where: { $0.key == name })?.value { return value }
                return nil
            }
            guard let family = FaultCatalog.kind(named: activity.kind)?.family else { continue }
            let on: String? = switch family {
            case .network: key("remote") ?? (remotes.count == 1 ? remotes.first : nil)
            case .file: key("file") ?? "store"
            case .point: key("point")
            case .storage: key("file")
            case .clock, .power, .peer: nil
            }
            fired.append(Fault(family: Family(family), kind: activity.kind, on: on, step: number))
        }
        for (index, step) in steps.enumerated() where step == .kill {
            // A kill that ended a run (a step ran after it): the app lost what it had not made durable.
            if report.steps.contains(where: { $0.index > index + 1 }) {
                fired.append(Fault(family: .kill, kind: "kill", on: nil, step: index + 1))
            }
        }
        self.fired = fired.sorted { $0.step < $1.step }
        clears = steps.enumerated().compactMap { index, step in
            if case let .clear(scope) = step { return (index + 1, scope) }
            return nil
        }
    }

    /// Whether `fault` was still armed when step `number` ran: a damaged file stays
    /// damaged, a cut or a kill happened; anything else a clear of it (or of all) ended.
    func stillArmed(_ fault: Fault, at number: Int) -> Bool {
        guard fault.step < number else { return false }
        switch fault.family {
        case .file, .power, .kill: return true
        default: return !clears.contains { $0.step > fault.step && $0.step < number && ($0.scope == "all" || $0.scope == fault.kind) }
        }
    }

    /// The fault a hang at step `number` is blamed on: of those that fired and still
    /// stood, the first by family (the network before the disk before the clock), the
    /// latest armed among equals.
    func culpritOfHang(at number: Int) -> Fault? {
        fired.filter { $0.family != .kill && stillArmed($0, at: number) }
            .min { ($0.family, -$0.step) < ($1.family, -$1.step) }
    }

    /// When no fault stood at the hang: the one that fired before it and was cleared, by
    /// the same order — an app that still waits once the network is back (a breaker that
    /// waits out a fixed minute, a pool that never reconnects) hangs because of it, and
    /// that is another cause than hanging while it stands.
    func clearedCulpritOfHang(at number: Int) -> Fault? {
        fired.filter { $0.family != .kill && $0.step < number && !stillArmed($0, at: number) }
            .min { ($0.family, -$0.step) < ($1.family, -$1.step) }
    }

    /// The distinct causes of a loss: each family (and what it acted on) once, in the
    /// order the families are listed.
    var causes: [Fault] {
        var seen = Set<String>()
        return fired.sorted { ($0.family, $0.step) < ($1.family, $1.step) }.filter { seen.insert($0.phrase).inserted }
    }

    /// `a power cut and file damage to store`; nil when nothing fired.
    static func phrase(_ phrases: [String]) -> String? {
        switch phrases.count {
        case 0: return nil
        case 1: return phrases[0]
        default: return phrases.dropLast().joined(separator: ", ") + " and " + (phrases.last ?? "")
        }
    }
}
