/// The settings screen's state. The circuit breaker is invisible here on purpose
/// (seed 004: "seamless user experience"): while the store is out, settings still
/// read and save, through the fallback file. The user sees an error only when not
/// even the file can take a change.
@MainActor
public final class SettingsViewModel {
    public private(set) var values: [SettingKey: String] = [:]
    /// The error shown to the user, nil when none.
    public private(set) var errorMessage: String?
    public private(set) var recoverySuggestion: String?

    private let repository: any SettingsRepositoryProtocol
    private let load: LoadSettingsUseCase
    private let get: GetSettingUseCase
    private let change: ChangeSettingUseCase

    public init(repository: any SettingsRepositoryProtocol) {
        self.repository = repository
        load = LoadSettingsUseCase(repository: repository)
        get = GetSettingUseCase(repository: repository)
        change = ChangeSettingUseCase(repository: repository)
    }

    public var breakerState: SettingsCircuitBreaker.State { repository.breakerState }
    public var pendingCount: Int { repository.pendingCount }

    /// The screen appeared: it gets a new unit of work, which lets an open breaker try
    /// the store again; then it shows the current values.
    @discardableResult
    public func onAppear() -> Bool {
        repository.provideNewContext()
        return refresh()
    }

    /// Reads every setting. Returns true when they could be read.
    @discardableResult
    public func refresh() -> Bool {
        do {
            values = try load.execute()
            clearError()
            return true
        } catch {
            show(error)
            return false
        }
    }

    /// One setting's value, or nil when it could not be read (the error is shown).
    public func value(for key: SettingKey) -> String? {
        do {
            let value = try get.execute(key)
            values[key] = value
            clearError()
            return value
        } catch {
            show(error)
            return nil
        }
    }

    /// Changes a setting. Returns where it went, or nil when it was refused (the error is shown).
    @discardableResult
    public func set(_ value: String, for key: SettingKey) -> SettingsWriteOutcome? {
        do {
            let outcome = try change.execute(key, to: value)
            values[key] = value
            clearError()
            return outcome
        } catch {
            show(error)
            return nil
        }
    }

    private func clearError() {
        errorMessage = nil
        recoverySuggestion = nil
    }

    private func show(_ error: SettingsError) {
        errorMessage = error.userMessage
        recoverySuggestion = error.recoverySuggestion
    }
}
