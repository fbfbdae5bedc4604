// LEGACY — seed 004's AppSettings before the circuit breaker, kept on purpose.
//
// It fetches the user's preferences once and keeps the model objects, as the old
// AppSettings kept its UserPreferences. After the context is reset, the next use of
// such an object is fatal, as it was under SwiftData: "This model instance was
// destroyed by calling ModelContext.reset and is no longer usable". There is no
// breaker and no fallback. See LegacyStore.swift for why this folder exists.

/// The old settings: model objects kept across operations, no breaker.
@MainActor
final class LegacySettingsRepository: SettingsRepositoryProtocol {
    private let context: SettingsContext
    private var preferences: [SettingKey: SettingRecord] = [:]

    init(context: SettingsContext) {
        self.context = context
        SettingsContextSlot.shared.replace(with: context)
        for record in (try? context.fetchAll()) ?? [] { preferences[record.key] = record }
    }

    var breakerState: SettingsCircuitBreaker.State { .closed }
    var pendingCount: Int { 0 }
    func provideNewContext() {}

    func allValues() throws(SettingsError) -> [SettingKey: String] {
        var values: [SettingKey: String] = [:]
        for key in SettingKey.allCases { values[key] = try value(for: key) }
        return values
    }

    func value(for key: SettingKey) throws(SettingsError) -> String {
        guard let record = preferences[key] else { return key.defaultValue }
        do {
            return try record.value
        } catch {
            destroyed(key)
        }
    }

    func set(_ value: String, for key: SettingKey) throws(SettingsError) -> SettingsWriteOutcome {
        if let record = preferences[key] {
            do {
                try context.update(record, to: value)
            } catch .objectInvalidated {
                destroyed(record.key)
            } catch {
                // swallowed, as the old `try? context.save()` did
            }
        } else {
            try? context.save([key: value])
        }
        preferences[key] = try? context.fetch(key)
        return .stored
    }

    /// What SwiftData did on the use of a model object destroyed by a reset.
    private func destroyed(_ key: SettingKey) -> Never {
        fatalError("This model instance was destroyed by calling ModelContext.reset and is no longer usable (setting \(key.rawValue))")
    }
}
