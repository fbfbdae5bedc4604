import ChaosTarget
import Foundation
import GRDB
import SystemUnderTest

/// The settings feature and its circuit breaker (seed 004) under the built-in target.
///
/// A setting is the record `setting:ID` (its fixed row id): a change the app accepts —
/// into the store, or into the fallback file while the breaker is open — is
/// acknowledged, and `preserved: acknowledged` then checks that it is kept: in the
/// store, or still pending in the fallback file, which the app serves it from while the
/// store cannot take it (a hunt found a change kept there, the store's WAL read-only for
/// good, counted as lost when only the store was read).
///
/// While the breaker is open and the store itself is `persistent`, the health probe's
/// mode is `circuit-open` (``fallbackMode(app:)``); a store already in a degraded mode
/// (read-only, in-memory...) reports that mode instead. The settings are read at
/// launch, as an app reads them to apply them, so a failure then shows in the launch's
/// health.
@MainActor
final class SettingsDriver: FeatureDriver {
    let actions = ["settings.set", "settings.get", "settings.list", "settings.open"]
    let probes = ["settings.breaker", "settings.value", "settings.pending", "settings.error"]
    let parameters: [String: [ActionParameter]] = [
        "settings.set": [.choice("key", SettingKey.allCases.map(\.rawValue)), .text("value")],
        "settings.get": [.choice("key", SettingKey.allCases.map(\.rawValue))],
    ]
    /// `settings.value.KEY` answers one setting.
    static let valuePrefix = "settings.value."

    func perform(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult? {
        guard actions.contains(call.name) else { return nil }
        let settings = app.settings
        switch call.name {
        case "settings.set":
            let key = try Self.key(call)
            let value = try call.string("value")
            let record = "setting:\(key.id)"
            call.attempt(record)
            guard let outcome = settings.set(value, for: key) else {
                return .failed(settings.errorMessage, error: "the change was refused")
            }
            call.acknowledge(record)
            return .done(.string(outcome.rawValue))
        case "settings.get":
            let key = try Self.key(call)
            guard let value = settings.value(for: key) else {
                return ActionResult(ok: false, userMessage: settings.errorMessage, error: "the setting could not be read")
            }
            return ActionResult(ok: true, value: .string(value), isRead: true)
        case "settings.list":
            let ok = settings.refresh()
            return ActionResult(ok: ok, value: ok ? Self.map(settings.values) : nil, userMessage: settings.errorMessage,
                                error: ok ? nil : "the settings could not be read", isRead: ok)
        default:
            let ok = settings.onAppear()
            return ActionResult(ok: ok, value: .string(settings.breakerState.rawValue), userMessage: settings.errorMessage,
                                error: ok ? nil : "the settings could not be read", isRead: ok)
        }
    }

    func probe(_ name: String, app: ChaosApp) async throws -> ScenarioValue? {
        if name.hasPrefix(Self.valuePrefix) {
            guard let key = SettingKey(rawValue: String(name.dropFirst(Self.valuePrefix.count))) else {
                throw TargetError("unknown setting in probe '\(name)'; settings: \(Self.keyNames)")
            }
            return app.settings.value(for: key).map(ScenarioValue.string) ?? .null
        }
        guard probes.contains(name) else { return nil }
        let settings = app.settings
        switch name {
        case "settings.breaker": return .string(settings.breakerState.rawValue)
        case "settings.value": return settings.refresh() ? Self.map(settings.values) : .null
        case "settings.pending": return .int(settings.pendingCount)
        default: return settings.errorMessage.map(ScenarioValue.string) ?? .null
        }
    }

    func surfaced(app: ChaosApp) -> Surfaced {
        app.settings.errorMessage.map(Surfaced.error) ?? .nothing
    }

    func fallbackMode(app: ChaosApp) -> StoreMode? {
        app.settings.breakerState == .open && app.health.mode == .persistent ? .circuitOpen : nil
    }

    private static var keyNames: String { SettingKey.allCases.map(\.rawValue).joined(separator: ", ") }

    private static func key(_ call: ActionCall) throws -> SettingKey {
        let name = try call.string("key")
        guard let key = SettingKey(rawValue: name) else {
            throw TargetError("unknown setting '\(name)'; settings: \(keyNames)")
        }
        return key
    }

    private static func map(_ values: [SettingKey: String]) -> ScenarioValue {
        .map(Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, ScenarioValue.string($0.value)) }))
    }

    /// The settings pending in the fallback file, as the rows the store would hold
    /// (`setting:ID`, written as the store's snapshot writes a row).
    func recordsOutsideStore(app: ChaosApp) -> [String: [String: String]] {
        let contents = SettingsFallbackFile(directory: app.configuration.directory).read()
        var records: [String: String] = [:]
        for name in contents.pending {
            guard let key = SettingKey(rawValue: name), let value = contents.values[name] else { continue }
            let row: Row = ["id": key.id, "key": name, "value": value]  // a literal keeps the columns' order
            records["setting:\(key.id)"] = row.description
        }
        return records.isEmpty ? [:] : ["setting": records]
    }
}
