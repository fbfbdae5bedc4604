import Foundation
import ChaosTarget

/// One chaos scenario, as loaded from its YAML file: what to do to the app, what to
/// break, and what must still hold afterwards. docs/SCENARIOS.md is the format.
///
/// ```yaml
/// name: corrupted-db
/// summary: The favourites store is overwritten with garbage while the app is closed.
/// system: favorites
/// seed: 1
/// timeout: 30s
/// steps:
///   - launch
///   - do: favorites.add
///     with: { count: 25 }
///   - checkpoint: before-fault
///   - stop
///   - fault: corrupt-file
///     file: store
///     how: garbage-header
///   - launch
///   - do: favorites.list
/// expect:
///   - no-trap
///   - fallback: restored-from-backup
///   - recovered-within: 5s
///   - preserved: before-fault
///   - surfaced: warning
/// ```
///
/// Load one with ``ScenarioLoader``.
package struct Scenario: Sendable, Equatable {
    /// Kebab-case (`[a-z0-9-]+`, not starting with `-`); for a catalog's scenario, its file's base name.
    package var name: String
    /// One line for people: what happens to the app.
    package var summary: String
    /// The system (feature) of its target it exercises: one the target declares, or any
    /// kebab-case name for a target that declares none.
    package var system: String
    /// The default case seed; `--seed` overrides it. Default 1.
    package var seed: UInt64
    /// Bound on the whole case. Default 30s, at most ``maximumTimeout``.
    package var timeout: Duration
    /// Target options passed at launch (`synchronous: full`), scalars as written.
    package var options: [String: String]
    /// What to do, in order. Never empty.
    package var steps: [ScenarioStep]
    /// What must hold, as written under `expect:`. `no-trap` is checked whether or not
    /// it is written: see ``checkedExpectations``.
    package var expectations: [ScenarioExpectation]
    /// Where the document starts.
    package var location: SourceLocation
    /// Where `system:` is written (nil for a scenario made in code).
    package var systemLocation: SourceLocation?
    /// Where each of ``options`` is written (empty for a scenario made in code).
    package var optionLocations: [String: SourceLocation] = [:]
    /// The file's text, for hashing in reports.
    package var sourceText: String
    /// Where it came from (a scenario made in code: its location's file).
    package var origin: ScenarioOrigin

    package init(
        name: String, summary: String, system: String, seed: UInt64 = Scenario.defaultSeed,
        timeout: Duration = Scenario.defaultTimeout, options: [String: String] = [:],
        steps: [ScenarioStep], expectations: [ScenarioExpectation] = [],
        location: SourceLocation, sourceText: String
    ) {
        self.name = name
        self.summary = summary
        self.system = system
        self.seed = seed
        self.timeout = timeout
        self.options = options
        self.steps = steps
        self.expectations = expectations
        self.location = location
        self.sourceText = sourceText
        origin = .file(path: location.file)
    }

    package static let defaultSeed: UInt64 = 1
    package static let defaultTimeout: Duration = .seconds(30)
    package static let maximumTimeout: Duration = .seconds(600)

    /// The expectations the runner checks: those written, with `no-trap` first when it
    /// was not written (it is always checked).
    package var checkedExpectations: [ScenarioExpectation] {
        if expectations.contains(where: { $0.kind == .noTrap }) { return expectations }
        return [ScenarioExpectation(kind: .noTrap, location: location)] + expectations
    }

    /// The checkpoint names the steps declare, in order.
    package var checkpoints: [String] {
        steps.compactMap { step in
            if case let .checkpoint(name) = step.action { return name }
            return nil
        }
    }
}

/// The top-level keys of a scenario file, declared once.
enum ScenarioKey: String, CaseIterable {
    case name, summary, system, seed, timeout, options, steps, expect
}
