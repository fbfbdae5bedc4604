import ChaosTarget
import SystemUnderTest

/// One feature of the reference app, as the built-in target drives it: its actions,
/// its probes, and what its screen shows. The target asks each driver in turn; a
/// driver answers nil for a name that is not its own.
@MainActor
protocol FeatureDriver: AnyObject {
    var actions: [String] { get }
    /// The arguments of the actions that take any; the others take none.
    var parameters: [String: [ActionParameter]] { get }
    var probes: [String] { get }
    /// Performs `call`, or returns nil when it is not one of this feature's actions.
    func perform(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult?
    /// Answers `probe`, or returns nil when it is not one of this feature's.
    func probe(_ name: String, app: ChaosApp) async throws -> ScenarioValue?
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
    var parameters: [String: [ActionParameter]] { [:] }
    func configure(_ context: TargetContext) {}
    func fallbackMode(app: ChaosApp) -> StoreMode? { nil }
    func recordsOutsideStore(app: ChaosApp) -> [String: [String: String]] { [:] }
}
