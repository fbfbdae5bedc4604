import Chaos
import SystemUnderTest

/// One feature of the reference app, as the built-in target drives it: its actions,
/// its probes, and what its screen shows. The target asks each driver in turn; a
/// driver answers nil for a name that is not its own.
@MainActor
protocol FeatureDriver: AnyObject {
    var actions: [String] { get }
    var probes: [String] { get }
    /// Performs `action`, or returns nil when it is not one of this feature's.
    func perform(_ action: String, arguments: [String: ScenarioValue], app: ChaosApp) async throws -> ActionResult?
    /// Answers `probe`, or returns nil when it is not one of this feature's.
    func probe(_ name: String, app: ChaosApp) async throws -> ScenarioValue?
    /// What the feature's screen shows the user right now, if anything.
    func surfaced(app: ChaosApp) -> (severity: Severity, message: String?)
    /// Called once when the target starts, for a driver that needs the target's
    /// options or seed (the family feature's `remote-url`). Default: nothing.
    func configure(_ context: TargetContext)
    /// A fallback the feature runs on that the store's health cannot see (family:
    /// `local-only` while families wait to sync), or nil. Default: nil.
    func fallbackMode(app: ChaosApp) -> StoreMode?
}

extension FeatureDriver {
    func configure(_ context: TargetContext) {}
    func fallbackMode(app: ChaosApp) -> StoreMode? { nil }
}

/// Reading action arguments, with errors that say what is wrong.
enum Arguments {
    static func int(_ arguments: [String: ScenarioValue], _ key: String, default value: Int,
                    in range: ClosedRange<Int> = 0...1_000_000) throws -> Int {
        switch arguments[key] {
        case nil: return value
        case let .int(number)? where range.contains(number): return number
        case let other?: throw TargetError("'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(other)")
        }
    }

    static func string(_ arguments: [String: ScenarioValue], _ key: String, default value: String? = nil) throws -> String {
        switch arguments[key] {
        case let .string(text)?: return text
        case nil:
            guard let value else { throw TargetError("'\(key)' is required") }
            return value
        case let other?: return other.description
        }
    }

    static func bool(_ arguments: [String: ScenarioValue], _ key: String, default value: Bool) throws -> Bool {
        switch arguments[key] {
        case nil: return value
        case let .bool(flag)?: return flag
        case let other?: throw TargetError("'\(key)' must be true or false, found \(other)")
        }
    }
}
