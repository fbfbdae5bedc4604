import ChaosTarget
import Foundation

/// One schedule of a hunt: a case the generator wrote from the run's seed (its
/// ``index``), judged by the generic oracle (``HuntOracle``). It becomes a scenario by
/// way of its YAML text, through the loader every scenario goes through: what runs is
/// exactly what a finding's file says, and a candidate the format refuses never runs.
package struct HuntSchedule: Sendable, Equatable {
    /// Its place in the hunt: schedule `index` of seed S is the same on every machine.
    package var index: Int
    /// The case seed (the scenario's `seed:`): every firing and damage of the case.
    package var seed: UInt64
    /// The `system:` it exercises (which remotes run for it).
    package var system: String
    package var steps: [WrittenStep]

    package init(index: Int, seed: UInt64, system: String, steps: [WrittenStep]) {
        self.index = index
        self.seed = seed
        self.system = system
        self.steps = steps
    }

    /// Bound on one schedule: a hang costs this much of the budget, and is a finding.
    static let timeoutSeconds = 20
    static let timeout = "\(timeoutSeconds)s"

    /// The scenario file: the steps, and the generic oracle's expectations.
    package func yaml(name: String, summary: String) -> String {
        ScenarioWriter.text(name: name, summary: summary, system: system, seed: seed, timeout: Self.timeout, steps: steps,
                            expectations: HuntOracle.expectations(for: steps))
    }

    /// The schedule as a scenario named `name`, said to come from `file`.
    package func scenario(name: String, summary: String, file: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.load(yaml: yaml(name: name, summary: summary), file: file, baseDirectory: nil)
    }

    /// The name of an unshrunk schedule's case: `hunt-17`.
    var caseName: String { "hunt-\(index)" }

    /// Something to run: a schedule has a launch. (What else a schedule must keep — a
    /// launch before the app is used, no launch while it runs — the scenario loader
    /// checks, as for any scenario.)
    var isWellFormed: Bool {
        steps.contains(.launch)
    }

    /// Whether it ends with the read the oracle times recovery by: every generated
    /// schedule does; a shrunk one may end earlier, where its failure shows (a trap at
    /// launch, a write lost at a stop), and is then not held to `recovered-within`.
    var endsWithTheClosingRead: Bool { steps.last == HuntSchedule.closingRead }

    /// As ``isWellFormed``, and for a failure other than one at a step (a trap, a hang or
    /// an exit there), no fault stands at the end: the oracle's read within 5 s is timed
    /// from the last clearing, and the app relaunched to read what it kept must not be
    /// judged through a network still cut or a clock still moved. (Damage done to a file
    /// is done, and stands for nothing: it needs no clear.)
    func isWellFormed(for failure: HuntOracle.Failure) -> Bool {
        guard isWellFormed else { return false }
        return failure.isAtAStep || standingAtTheEnd.isEmpty
    }

    /// The kinds of the faults armed and never cleared (file damage aside).
    var standingAtTheEnd: [String] {
        var standing: [String] = []
        for step in steps {
            switch step {
            case let .fault(kind, _) where FaultCatalog.kind(named: kind)?.stands ?? true: standing.append(kind)
            case let .clear(scope): standing.removeAll { scope == "all" || $0 == scope }
            default: break
            }
        }
        return standing
    }

    /// The read every schedule ends with.
    static let closingRead = WrittenStep.action(Workload.actionPrefix + "read", [])

    /// Whether any step injects a fault or cuts the power.
    var injects: Bool { steps.contains(where: \.injects) }

    /// Whether, while the app is closed, the schedule deletes every one of `files` (the
    /// files a target declares, `-shm` aside) when there are two or more: what is left
    /// is a new install, which no app can tell from a first launch, so the hunt never
    /// runs it. An app that keeps a second file (a backup) keeps the trace the catalog
    /// asks for; a schedule that takes every trace away finds nothing the app could do
    /// (a guided hunt deleted a to-do list and its backup and called the empty list a
    /// silent loss). An app that keeps one file is still held to its deletion.
    func deletesEvery(_ files: Set<String>) -> Bool {
        guard files.count > 1 else { return false }
        var deleted: Set<String> = []
        for step in steps {
            switch step {
            case let .fault(kind, keys) where kind == DeleteFileFault.kind:
                deleted.insert(keys.first { $0.key == "file" }?.value.stringValue ?? "store")
                if files.isSubset(of: deleted) { return true }
            case .launch: deleted = []
            default: break
            }
        }
        return false
    }
}

/// A written step as a hunt draws, shrinks and judges it.
extension WrittenStep {
    /// `do: NAME` with `with:` arguments only: the hunt's actions.
    static func action(_ name: String, _ arguments: [HuntKey]) -> WrittenStep { .action(name, arguments, []) }

    /// `power-loss: MODE`, now (no moment) or at a moment: the hunt's cuts.
    static func powerLoss(_ mode: String, _ moment: HuntKey?) -> WrittenStep { .powerLoss(mode, moment.map { [$0] } ?? []) }

    /// A fault or a power loss: what "its faults never bit" is about.
    var injects: Bool {
        switch self {
        case .fault, .powerLoss: true
        default: false
        }
    }

    /// One a hunt writes and shrinks: no checkpoint, no wait, an action without
    /// `repeat:` or `expect-error:`.
    var isHunted: Bool {
        switch self {
        case .checkpoint, .wait: false
        case let .action(_, _, rest): rest.isEmpty
        default: true
        }
    }
}
