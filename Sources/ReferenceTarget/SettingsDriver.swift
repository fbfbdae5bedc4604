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
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        action("settings.set", [.choice("key", SettingKey.allCases.map(\.rawValue)).required, .text("value").required]) { _, call, app in
            let settings = app.settings
            let key = try SettingsDriver.key(call)
            let value = try call.string("value")
            let record = "setting:\(key.id)"
            call.attempt(record)
            guard let outcome = settings.set(value, for: key) else {
                return .failed(settings.errorMessage, error: "the change was refused")
            }
            call.acknowledge(record)
            return .done(.string(outcome.rawValue))
        },
        action("settings.get", [.choice("key", SettingKey.allCases.map(\.rawValue))]) { _, call, app in
            let settings = app.settings
            let key = try SettingsDriver.key(call)
            guard let value = settings.value(for: key) else {
                return ActionResult(ok: false, userMessage: settings.errorMessage, error: "the setting could not be read")
            }
            return ActionResult(ok: true, value: .string(value), isRead: true)
        },
        action("settings.list") { _, _, app in
            let settings = app.settings
            let ok = settings.refresh()
            return ActionResult(ok: ok, value: ok ? SettingsDriver.map(settings.values) : nil, userMessage: settings.errorMessage,
                                error: ok ? nil : "the settings could not be read", isRead: ok)
        },
        action("settings.open") { _, _, app in
            let settings = app.settings
            let ok = settings.onAppear()
            return ActionResult(ok: ok, value: .string(settings.breakerState.rawValue), userMessage: settings.errorMessage,
                                error: ok ? nil : "the settings could not be read", isRead: ok)
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        probe("settings.breaker") { _, app in .string(app.settings.breakerState.rawValue) },
        probe("settings.value") { _, app in app.settings.refresh() ? SettingsDriver.map(app.settings.values) : .null },
        probe("settings.pending") { _, app in .int(app.settings.pendingCount) },
        probe("settings.error") { _, app in app.settings.errorMessage.map(ScenarioValue.string) ?? .null },
    ]

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
