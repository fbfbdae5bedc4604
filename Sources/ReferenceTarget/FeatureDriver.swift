import ChaosTarget
import SystemUnderTest

/// One feature of the reference app, as the built-in target drives it: its actions and
/// probes, declared as a user's target declares them (`[TargetAction]`, each name once,
/// with its arguments and its body), and what its screen shows.
@MainActor
protocol FeatureDriver: AnyObject {
    /// The actions a scenario can `do:` on this feature.
    static var actions: [TargetAction<SystemUnderTestTarget>] { get }
    /// The probes a scenario can ask of it.
    static var probes: [TargetProbe<SystemUnderTestTarget>] { get }
    /// What the feature's screen shows the user right now, if anything.
    func surfaced(app: ChaosApp) -> Surfaced
    /// Called once when the target starts, for a driver that needs the target's
    /// options, seed or remotes (the family feature's registry). Default: nothing.
    func configure(_ context: TargetContext)
    /// A fallback the feature runs on that the store's health cannot see (family:
    /// `local-only` while families wait to sync), or nil. Default: nil.
    func fallbackMode(app: ChaosApp) -> StoreMode?
    /// The user's records the feature keeps outside the store, as snapshot rows
    /// (table → key → row), or none. Default: none.
    func recordsOutsideStore(app: ChaosApp) -> [String: [String: String]]
}

extension FeatureDriver {
    static var probes: [TargetProbe<SystemUnderTestTarget>] { [] }
    func configure(_ context: TargetContext) {}
    func fallbackMode(app: ChaosApp) -> StoreMode? { nil }
    func recordsOutsideStore(app: ChaosApp) -> [String: [String: String]] { [:] }

    /// An action of this feature, taking `parameters` (none when empty): its body gets
    /// the feature's driver and the running app.
    nonisolated static func action(_ name: String, _ parameters: [ActionParameter] = [],
                       _ body: @escaping @MainActor @Sendable (Self, ActionCall, ChaosApp) async throws -> ActionResult)
        -> TargetAction<SystemUnderTestTarget> {
        TargetAction(name, parameters: parameters) { target, call in
            let (driver, app) = try target.running(Self.self, for: "'\(name)'")
            return try await body(driver, call, app)
        }
    }

    /// A probe of this feature: its body gets the feature's driver and the running app.
    nonisolated static func probe(_ name: String, _ body: @escaping @MainActor @Sendable (Self, ChaosApp) async throws -> ScenarioValue)
        -> TargetProbe<SystemUnderTestTarget> {
        TargetProbe(name) { target in
            let (driver, app) = try target.running(Self.self, for: "probe '\(name)'")
            return try await body(driver, app)
        }
    }
}
