import ChaosTarget
import Foundation

/// The storage catalog: what `chaos check` runs on any target that declares a
/// ``Workload``, with no scenario written by its user. One scenario a file in
/// `Sources/Scenarios/check/`, each written against the workload's two actions
/// (`do: workload.write`, `do: workload.read`) and judged by the generic oracle: no
/// trap; no silent data loss (every acknowledged record is still there, or the app
/// told the user it is not); the store passes `integrity_check` or the app no longer
/// uses it; the app reads its data again within 5 s.
///
/// `fallback: after-damage` is the workload's promise (``Workload/afterDamage``): the
/// mode the app reports after its store was damaged. A target that promises none is
/// not held to one: the expectation is dropped.
package enum CheckCatalog {
    /// The scenario whose write workload the bounded io and crash sweeps run on.
    package static let sweptScenario = "check-write-workload"
    /// Trials of each bounded sweep.
    package static let ioSweepTrials = 40
    package static let crashSweepTrials = 48

    /// The catalog for a target: the bundled cases, and the migration cases of the older
    /// stores its workload declares (``MigrationCases``). The bundled cases name the
    /// workload's actions and promise (`workload.write`, `fallback: after-damage`); the
    /// runner fills them in from the target each case runs on, so a case reproduces with
    /// `chaos run FILE` as it is.
    package static func scenarios(for declaration: TargetDeclaration) throws(ScenarioError) -> [Scenario] {
        try (ScenarioLoader.storageCatalog() + MigrationCases.scenarios(for: declaration.workload)).sorted { $0.name < $1.name }
    }

    /// Whether a case of the catalog applies to a target: its network cases need a
    /// remote the target's workload talks to (one declared for every system, or for the
    /// storage catalog's); its suspension cases and those whose actions another process
    /// runs (`in: peer`) a shared container (``TargetDeclaration/sharedContainer``), and
    /// its peer faults a SQLite store in it; every other case applies to every target.
    package static func applies(_ scenario: Scenario, to declaration: TargetDeclaration) -> Bool {
        if scenario.steps.contains(where: { step in
            switch step.action {
            case .suspend: true
            case let .perform(action): action.inPeer
            default: false
            }
        }) {
            return !declaration.sharedContainer.isEmpty
        }
        if scenario.steps.contains(where: { if case let .fault(step) = $0.action { step.fault.family == .peer } else { false } }) {
            return PeerSeam.sharedStore(of: declaration) != nil
        }
        let network = scenario.steps.contains { if case let .fault(step) = $0.action { step.fault.family == .network } else { false } }
        guard network else { return true }
        return declaration.remotes.contains { $0.serves(ScenarioTargetCheck.storageSystem) }
    }

    /// Why a case of the catalog that applies does not run on a target, if it does not:
    /// its storage cases (a file damaged, a storage fault, a power cut, the sweeps of the
    /// workload's file calls) act on the files the target keeps, and a target that
    /// declares none (`static let files = [:]`: its data lives on a remote) has nothing
    /// for them to act on. Such a case is `skipped` with this reason, so the report says
    /// what was not tried, rather than `inconclusive` (a fault that reached nothing) or
    /// `errored` (a file the scenario names and the target lacks).
    package static func skipReason(_ scenario: Scenario, on declaration: TargetDeclaration) -> String? {
        guard declaration.files.isEmpty, scenario.name == sweptScenario || actsOnFiles(scenario) else { return nil }
        return "the target keeps no files (it declares none: static let files = [:]), so this storage case has nothing to act on"
    }

    /// A file fault, a storage fault or a power cut among its steps.
    static func actsOnFiles(_ scenario: Scenario) -> Bool {
        scenario.steps.contains { step in
            switch step.action {
            case let .fault(fault): [.file, .storage, .power].contains(fault.fault.family)
            default: false
            }
        }
    }
}
