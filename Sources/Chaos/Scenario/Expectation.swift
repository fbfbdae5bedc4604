import ChaosTarget

/// What must hold after a case. In YAML, under `expect:`, a bare word (`- no-trap`) or a
/// one-key mapping (`- fallback: in-memory`): docs/SCENARIOS.md says what each means.
package enum Expectation: Sendable, Equatable {
    /// `no-trap`: the app never trapped. Always checked, even when not written.
    case noTrap
    /// `fallback: MODE`: the `health` probe reports this storage mode, one of ``fallbackModes``.
    case fallback(String)
    /// `recovered-within: 5s`: from the launch (or the fault's clearing) to the first
    /// successful read, and no launch or action answered later than that.
    case recoveredWithin(Duration)
    /// `responsive-within: 5s`: every launch and action answered within the bound
    /// (what every sweep trial is held to, whatever its fault).
    case responsiveWithin(Duration)
    /// `preserved: CHECKPOINT` (declared in the steps) or `preserved: acknowledged`.
    case preserved(String)
    /// `surfaced: error|warning|none`: what the user is shown.
    case surfaced(SurfaceLevel)
    /// `state: {probe: P, equals: V}`: any other probe.
    case state(probe: String, equals: ScenarioValue)
    /// `integrity: ok`: `PRAGMA integrity_check` passes after the case.
    case integrity
    /// `integrity: ok-if-used`: it passes, or the app no longer has the store open at
    /// the end (it set the file aside, or runs without it).
    case integrityIfUsed
    /// `no-silent-loss`: every acknowledged record is still there, or the app told the
    /// user (a warning or an error on screen at the end): losing data quietly is the failure.
    case noSilentLoss
    /// `logged: {level: error, message: "could not be opened", site: AppStore.swift}`:
    /// the app logged a matching record (swift-log) during the case.
    case logged(LogPattern)
    /// `not-logged: {level: error}`: it logged no matching record.
    case notLogged(LogPattern)
    /// `private-logs`: no log record holds the content of a record the user saved.
    case privateLogs
    /// `live-after-healing`: once every fault is cleared (file damage aside, when another
    /// of the app's files still held data: a good copy), the app's last launch serves the
    /// user's data: it does not say it cannot (an error at launch, "try again later" for
    /// ever), and a read answers. Told or not.
    case liveAfterHealing
    /// `damaged-kept`: a file Chaos damaged that the app could not read as it was (its
    /// next launch reported another mode, or told the user) is still somewhere in its
    /// data folder at the end — set aside, never destroyed — or the app said it is gone
    /// (the `discarded` mode).
    case damagedKept
    /// `claims-hold`: every record the app says is kept on a remote (synced, uploaded:
    /// ``ChaosTarget/claims``) is in that remote's snapshot at the end of the case.
    case claimsHold
    /// `records-at-least: 12`: the app's data, read after a restart, holds at least this
    /// many records (a store an older version left, migrated: none of its records lost).
    case recordsAtLeast(Int)

    /// The common storage modes (``Health/Mode/standard``), by wire name; a target may
    /// define its own.
    package static let fallbackModes = Health.Mode.standard.map(\.rawValue)
    /// `fallback: after-damage`: the mode the target's workload promises after its
    /// store was damaged (``Workload/afterDamage``); the storage catalog's placeholder.
    package static let afterDamage = "after-damage"
    /// `preserved: acknowledged`: every write a use case reported as successful.
    package static let acknowledged = "acknowledged"

    package var keyword: ExpectationKeyword {
        switch self {
        case .noTrap: .noTrap
        case .fallback: .fallback
        case .recoveredWithin: .recoveredWithin
        case .responsiveWithin: .responsiveWithin
        case .preserved: .preserved
        case .surfaced: .surfaced
        case .state: .state
        case .integrity, .integrityIfUsed: .integrity
        case .noSilentLoss: .noSilentLoss
        case .logged: .logged
        case .notLogged: .notLogged
        case .privateLogs: .privateLogs
        case .recordsAtLeast: .recordsAtLeast
        case .liveAfterHealing: .liveAfterHealing
        case .damagedKept: .damagedKept
        case .claimsHold: .claimsHold
        }
    }

    /// `no-trap`, `fallback`, ...: what reports put in `expectations[].kind`.
    package var wireName: String { keyword.rawValue }

    /// `fallback: in-memory`, `recovered-within: 5s`, `state: favorites.count = 25`.
    package var label: String {
        switch self {
        case .noTrap: wireName
        case let .fallback(mode): "\(wireName): \(mode)"
        case let .recoveredWithin(duration), let .responsiveWithin(duration): "\(wireName): \(ScenarioDuration.format(duration))"
        case let .preserved(name): "\(wireName): \(name)"
        case let .surfaced(level): "\(wireName): \(level.rawValue)"
        case let .state(probe, value): "\(wireName): \(probe) = \(value.description)"
        case .integrity: "\(wireName): ok"
        case .integrityIfUsed: "\(wireName): ok-if-used"
        case .noSilentLoss, .privateLogs, .liveAfterHealing, .damagedKept, .claimsHold: wireName
        case let .logged(pattern), let .notLogged(pattern): "\(wireName): \(pattern.description)"
        case let .recordsAtLeast(count): "\(wireName): \(count)"
        }
    }
}

/// The expectation kinds by wire name, declared once.
package enum ExpectationKeyword: String, CaseIterable, Sendable {
    case noTrap = "no-trap"
    case fallback
    case recoveredWithin = "recovered-within"
    case responsiveWithin = "responsive-within"
    case preserved
    case surfaced
    case state
    case integrity
    case noSilentLoss = "no-silent-loss"
    case logged
    case notLogged = "not-logged"
    case privateLogs = "private-logs"
    case recordsAtLeast = "records-at-least"
    case liveAfterHealing = "live-after-healing"
    case damagedKept = "damaged-kept"
    case claimsHold = "claims-hold"

    /// Written as a bare word, without a value.
    package var isBare: Bool { [.noTrap, .noSilentLoss, .privateLogs, .liveAfterHealing, .damagedKept, .claimsHold].contains(self) }
}

/// What the view-model layer shows the user, for `surfaced:`.
package enum SurfaceLevel: String, CaseIterable, Sendable, Codable {
    case error, warning, none
}

/// An expectation and where it was written.
package struct ScenarioExpectation: Sendable, Equatable {
    package var kind: Expectation
    package var location: SourceLocation

    package init(kind: Expectation, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    package var wireName: String { kind.wireName }
    package var label: String { kind.label }
}
