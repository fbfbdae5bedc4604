/// The settings repository the use cases see.
@MainActor
public protocol SettingsRepositoryProtocol: AnyObject {
    /// Every setting's value (the user's choice, or its default).
    func allValues() throws(SettingsError) -> [SettingKey: String]
    func value(for key: SettingKey) throws(SettingsError) -> String
    func set(_ value: String, for key: SettingKey) throws(SettingsError) -> SettingsWriteOutcome
    /// The settings screen appeared: it gets a new unit of work (seed 004's `setModelContext`).
    func provideNewContext()
    var breakerState: SettingsCircuitBreaker.State { get }
    /// Changes kept in the fallback file, waiting to go back into the store.
    var pendingCount: Int { get }
}

/// The hardened settings repository: the store behind a circuit breaker, with the
/// fallback file when the breaker is open (seed 004).
///
/// - A store error or a context reset opens the breaker; the operation is then served
///   from the fallback file, so the user never sees it fail.
/// - A new context (the screen appearing again, or the first operation after the
///   cool-down) makes the breaker half-open; the next store operation that works
///   closes it.
/// - No setting is lost either way: changes accepted while open are marked pending in
///   the file and merged into the store, before anything else, when the store works
///   again; while closed, the file mirrors the store.
/// - It never holds a record across operations: a reset between two operations
///   cannot leave it with a destroyed object.
@MainActor
public final class SettingsRepository: SettingsRepositoryProtocol {
    public private(set) var breaker: SettingsCircuitBreaker
    /// The last store failure, for diagnostics.
    public private(set) var lastFailure: SettingsContextError?

    private let store: AppStore
    private let fallback: SettingsFallbackFile
    private var context: SettingsContext
    private let clock = ContinuousClock()

    public init(store: AppStore, fallback: SettingsFallbackFile, coolDown: Duration = .seconds(30)) {
        self.store = store
        self.fallback = fallback
        breaker = SettingsCircuitBreaker(coolDown: coolDown)
        context = SettingsContext(store: store)
        SettingsContextSlot.shared.replace(with: context)
        if !store.isPersistent {
            // A store that keeps nothing on disk (in memory, read-only) cannot keep a
            // setting across a restart: the file serves from the start, holding what
            // the store can still show.
            adoptReadableValues()
            breaker.recordFailure(at: clock.now)
        }
    }

    public var breakerState: SettingsCircuitBreaker.State { breaker.state }
    public var pendingCount: Int { fallback.read().pending.count }

    public func provideNewContext() {
        context = SettingsContext(store: store)
        SettingsContextSlot.shared.replace(with: context)
        if store.isPersistent { breaker.contextProvided() }
    }

    public func allValues() throws(SettingsError) -> [SettingKey: String] {
        if let stored = withStore({ context throws(SettingsContextError) in try Self.values(of: context.fetchAll()) }) {
            mirror(stored)
            return Self.complete(stored)
        }
        return Self.complete(fallbackValues())
    }

    public func value(for key: SettingKey) throws(SettingsError) -> String {
        try allValues()[key] ?? key.defaultValue
    }

    public func set(_ value: String, for key: SettingKey) throws(SettingsError) -> SettingsWriteOutcome {
        guard SettingKey.isAcceptable(value) else { throw .invalidValue(key: key.rawValue) }
        if withStore({ context throws(SettingsContextError) in try context.save([key: value]) }) != nil {
            var contents = fallback.read()
            contents.values[key.rawValue] = value
            contents.pending.removeAll { $0 == key.rawValue }
            // Best effort: the store has it; the mirror is refreshed at the next read.
            try? fallback.write(contents)
            return .stored
        }
        var contents = fallback.read()
        contents.values[key.rawValue] = value
        contents.pending.append(key.rawValue)
        do {
            try fallback.write(contents)
        } catch {
            throw .unavailable(underlying: "store: \(lastFailure?.description ?? "breaker open"); fallback file: \(error)")
        }
        return .keptInFallback
    }

    // MARK: - The breaker

    /// Runs `operation` on the store when the breaker allows it; nil when the breaker
    /// is open or the operation failed (which opens it). Pending changes from the
    /// fallback file go into the store first, so a newer change is never overwritten
    /// by an older pending one.
    private func withStore<Result>(_ operation: (SettingsContext) throws(SettingsContextError) -> Result) -> Result? {
        if breaker.isCoolDownOver(at: clock.now) { provideNewContext() }
        guard breaker.allowsStore else { return nil }
        do {
            try mergePending()
            let result = try operation(context)
            breaker.recordSuccess()
            return result
        } catch {
            lastFailure = error
            breaker.recordFailure(at: clock.now)
            return nil
        }
    }

    private func mergePending() throws(SettingsContextError) {
        var contents = fallback.read()
        guard !contents.pending.isEmpty else { return }
        var values: [SettingKey: String] = [:]
        for name in contents.pending {
            if let key = SettingKey(rawValue: name), let value = contents.values[name] { values[key] = value }
        }
        try context.save(values)
        contents.pending = []
        try? fallback.write(contents)
    }

    /// Keeps the file equal to the store while the breaker is closed; writes only on a change.
    private func mirror(_ stored: [SettingKey: String]) {
        var contents = fallback.read()
        let values = Dictionary(uniqueKeysWithValues: stored.map { ($0.key.rawValue, $0.value) })
        guard contents.values != values || !contents.pending.isEmpty else { return }
        contents.values = values
        contents.pending = []
        try? fallback.write(contents)
    }

    /// Copies what a read-only store still holds into the file, except changes pending there.
    private func adoptReadableValues() {
        guard let stored = try? Self.values(of: context.fetchAll()) else { return }
        var contents = fallback.read()
        let before = contents
        for (key, value) in stored where !contents.pending.contains(key.rawValue) {
            contents.values[key.rawValue] = value
        }
        if contents != before { try? fallback.write(contents) }
    }

    private func fallbackValues() -> [SettingKey: String] {
        var values: [SettingKey: String] = [:]
        for (name, value) in fallback.read().values {
            if let key = SettingKey(rawValue: name) { values[key] = value }
        }
        return values
    }

    private static func values(of records: [SettingRecord]) throws(SettingsContextError) -> [SettingKey: String] {
        var values: [SettingKey: String] = [:]
        for record in records { values[record.key] = try record.value }
        return values
    }

    /// The user's choices, with defaults for the rest.
    private static func complete(_ chosen: [SettingKey: String]) -> [SettingKey: String] {
        var values: [SettingKey: String] = [:]
        for key in SettingKey.allCases { values[key] = chosen[key] ?? key.defaultValue }
        return values
    }
}
