/// The settings use cases: thin, one job each, typed errors.
@MainActor
public struct LoadSettingsUseCase {
    let repository: any SettingsRepositoryProtocol
    public init(repository: any SettingsRepositoryProtocol) { self.repository = repository }
    public func execute() throws(SettingsError) -> [SettingKey: String] { try repository.allValues() }
}

@MainActor
public struct GetSettingUseCase {
    let repository: any SettingsRepositoryProtocol
    public init(repository: any SettingsRepositoryProtocol) { self.repository = repository }
    public func execute(_ key: SettingKey) throws(SettingsError) -> String { try repository.value(for: key) }
}

@MainActor
public struct ChangeSettingUseCase {
    let repository: any SettingsRepositoryProtocol
    public init(repository: any SettingsRepositoryProtocol) { self.repository = repository }
    public func execute(_ key: SettingKey, to value: String) throws(SettingsError) -> SettingsWriteOutcome {
        try repository.set(value, for: key)
    }
}
