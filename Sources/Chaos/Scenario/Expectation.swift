/// What must hold after a case. In YAML, under `expect:`, a bare word (`- no-trap`) or
/// a one-key mapping (`- fallback: in-memory`). DESIGN.md section 2 says what each means.
public enum Expectation: Sendable, Equatable {
    /// `no-trap`: the app never trapped. Always checked, even when not written.
    case noTrap
    /// `fallback: MODE`: the `health` probe reports this storage mode, one of ``fallbackModes``.
    case fallback(String)
    /// `recovered-within: 5s`: from the launch (or the fault's clearing) to the first successful read.
    case recoveredWithin(Duration)
    /// `preserved: CHECKPOINT` (declared in the steps) or `preserved: acknowledged`.
    case preserved(String)
    /// `surfaced: error|warning|none`: what the user is shown.
    case surfaced(SurfaceLevel)
    /// `state: {probe: P, equals: V}`: any other probe.
    case state(probe: String, equals: ScenarioValue)
    /// `integrity: ok`: `PRAGMA integrity_check` passes after the case.
    case integrity

    /// The storage modes a `health` probe reports, by wire name.
    public static let fallbackModes = [
        "persistent", "restored-from-backup", "salvaged", "in-memory", "read-only", "local-only", "circuit-open",
    ]
    /// `preserved: acknowledged`: every write a use case reported as successful.
    public static let acknowledged = "acknowledged"

    public var keyword: ExpectationKeyword {
        switch self {
        case .noTrap: .noTrap
        case .fallback: .fallback
        case .recoveredWithin: .recoveredWithin
        case .preserved: .preserved
        case .surfaced: .surfaced
        case .state: .state
        case .integrity: .integrity
        }
    }

    /// `no-trap`, `fallback`, ...: what reports put in `expectations[].kind`.
    public var wireName: String { keyword.rawValue }

    /// `fallback: in-memory`, `recovered-within: 5s`, `state: favorites.count = 25`.
    public var label: String {
        switch self {
        case .noTrap: wireName
        case let .fallback(mode): "\(wireName): \(mode)"
        case let .recoveredWithin(duration): "\(wireName): \(ScenarioDuration.format(duration))"
        case let .preserved(name): "\(wireName): \(name)"
        case let .surfaced(level): "\(wireName): \(level.rawValue)"
        case let .state(probe, value): "\(wireName): \(probe) = \(value.description)"
        case .integrity: "\(wireName): ok"
        }
    }
}

/// The expectation kinds by wire name, declared once.
public enum ExpectationKeyword: String, CaseIterable, Sendable {
    case noTrap = "no-trap"
    case fallback
    case recoveredWithin = "recovered-within"
    case preserved
    case surfaced
    case state
    case integrity

    /// Written as a bare word, without a value.
    public var isBare: Bool { self == .noTrap }
}

/// What the view-model layer shows the user, for `surfaced:`.
public enum SurfaceLevel: String, CaseIterable, Sendable, Codable {
    case error, warning, none
}

/// An expectation and where it was written.
public struct ScenarioExpectation: Sendable, Equatable {
    public var kind: Expectation
    public var location: SourceLocation

    public init(kind: Expectation, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    public var wireName: String { kind.wireName }
    public var label: String { kind.label }
}
