import Foundation

/// Builds the settings screen for the app's variant: the hardened repository behind
/// its circuit breaker, or the legacy one that keeps model objects across a reset.
/// The settings are read at once, as an app reads them at launch to apply them.
@MainActor
public enum SettingsFeature {
    static func viewModel(app: ChaosApp) -> SettingsViewModel {
        let fallback = SettingsFallbackFile(directory: app.configuration.directory)
        let repository: any SettingsRepositoryProtocol = switch (app.variant, app.store) {
        case let (.hardened, store?): SettingsRepository(store: store, fallback: fallback)
        case let (.legacy, store?): LegacySettingsRepository(context: SettingsContext(store: store))
        case (_, nil): FallbackOnlySettingsRepository(fallback: fallback)
        }
        let viewModel = SettingsViewModel(repository: repository)
        viewModel.refresh()
        return viewModel
    }

    /// Resets the settings context in use, from any thread: the `reset-context` fault.
    public nonisolated static func resetCurrentContext() {
        SettingsContextSlot.shared.resetCurrent()
    }
}

/// Settings when no store exists at all: the fallback file alone, breaker open.
@MainActor
final class FallbackOnlySettingsRepository: SettingsRepositoryProtocol {
    let fallback: SettingsFallbackFile

    init(fallback: SettingsFallbackFile) {
        self.fallback = fallback
    }

    var breakerState: SettingsCircuitBreaker.State { .open }
    var pendingCount: Int { fallback.read().pending.count }
    func provideNewContext() {}

    func allValues() throws(SettingsError) -> [SettingKey: String] {
        let stored = fallback.read().values
        var values: [SettingKey: String] = [:]
        for key in SettingKey.allCases { values[key] = stored[key.rawValue] ?? key.defaultValue }
        return values
    }

    func value(for key: SettingKey) throws(SettingsError) -> String {
        try allValues()[key] ?? key.defaultValue
    }

    func set(_ value: String, for key: SettingKey) throws(SettingsError) -> SettingsWriteOutcome {
        guard SettingKey.isAcceptable(value) else { throw .invalidValue(key: key.rawValue) }
        var contents = fallback.read()
        contents.values[key.rawValue] = value
        contents.pending.append(key.rawValue)
        do {
            try fallback.write(contents)
        } catch {
            throw .unavailable(underlying: "no store; fallback file: \(error)")
        }
        return .keptInFallback
    }
}
