import FaultPoints
import GRDB
import Synchronization

/// A unit of work over the `setting` table, shaped like SwiftData's `ModelContext`:
/// it fetches ``SettingRecord`` objects and saves changes.
///
/// Its ``reset()`` invalidates every object it handed out, as `ModelContext.reset()`
/// does. SwiftData then traps on the next use of such an object ("This model instance
/// was destroyed by calling ModelContext.reset and is no longer usable", seed 004);
/// here the use throws ``SettingsContextError/objectInvalidated(key:)`` instead, so
/// the caller can fall back.
///
/// Thread-safe: `reset()` may come from any thread (a fault point fires on whatever
/// thread hit it), so the context's generation is an atomic counter. A record belongs
/// to the generation it was fetched in.
public final class SettingsContext: Sendable {
    let store: AppStore
    private let generation = Atomic<Int>(0)

    public init(store: AppStore) {
        self.store = store
    }

    /// Invalidates every record handed out so far. Thread-safe.
    public func reset() {
        _ = generation.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// How many times the context was reset.
    public var resetCount: Int { generation.load(ordering: .sequentiallyConsistent) }

    /// Every stored setting, as records of the current generation.
    public func fetchAll() throws(SettingsContextError) -> [SettingRecord] {
        let current = try begin()
        let rows: [(String, String)]
        do {
            rows = try store.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT key, value FROM setting ORDER BY id").map { row in
                    (row["key"] as String? ?? "", row["value"] as String? ?? "")
                }
            }
        } catch {
            throw .storeFailed(DatabaseError.describe(error))
        }
        try ensureNotReset(since: current)
        return rows.compactMap { key, value in
            SettingKey(rawValue: key).map { SettingRecord(key: $0, value: value, context: self, generation: current) }
        }
    }

    /// The stored record for `key`, or nil when the user never chose one.
    public func fetch(_ key: SettingKey) throws(SettingsContextError) -> SettingRecord? {
        try fetchAll().first { $0.key == key }
    }

    /// Saves `values` in one transaction (insert or replace by the key's row id).
    public func save(_ values: [SettingKey: String]) throws(SettingsContextError) {
        let current = try begin()
        try write(values)
        try ensureNotReset(since: current)
    }

    /// Changes a record fetched earlier. Throws ``SettingsContextError/objectInvalidated(key:)``
    /// when the context was reset since the record was fetched.
    public func update(_ record: SettingRecord, to value: String) throws(SettingsContextError) {
        _ = try begin(allowingReset: true)
        try record.ensureValid()
        try write([record.key: value])
    }

    func isCurrent(_ recordGeneration: Int) -> Bool {
        recordGeneration == generation.load(ordering: .sequentiallyConsistent)
    }

    // MARK: - Private

    /// Hits the context's fault point (where `reset-context` may reset this context)
    /// and returns the generation the operation runs in.
    private func begin(allowingReset: Bool = false) throws(SettingsContextError) -> Int {
        let before = generation.load(ordering: .sequentiallyConsistent)
        do {
            try FaultPoint.settingsContext.hit()
        } catch {
            throw .storeFailed(String(describing: error))
        }
        if !allowingReset { try ensureNotReset(since: before) }
        return generation.load(ordering: .sequentiallyConsistent)
    }

    private func ensureNotReset(since started: Int) throws(SettingsContextError) {
        guard isCurrent(started) else { throw .contextReset }
    }

    private func write(_ values: [SettingKey: String]) throws(SettingsContextError) {
        guard !values.isEmpty else { return }
        do {
            try store.writer.write { db in
                for (key, value) in values.sorted(by: { $0.key.id < $1.key.id }) {
                    try db.execute(sql: "INSERT OR REPLACE INTO setting (id, key, value) VALUES (?, ?, ?)",
                                   arguments: [key.id, key.rawValue, value])
                }
            }
        } catch {
            throw .storeFailed(DatabaseError.describe(error))
        }
        store.didWrite()
    }
}

/// A setting as the context handed it out: a model object bound to the context
/// generation it was fetched in.
public final class SettingRecord: Sendable {
    public let key: SettingKey
    private let storedValue: String
    private let context: SettingsContext
    private let generation: Int

    init(key: SettingKey, value: String, context: SettingsContext, generation: Int) {
        self.key = key
        self.storedValue = value
        self.context = context
        self.generation = generation
    }

    /// The value; throws when the context was reset after this record was fetched.
    public var value: String {
        get throws(SettingsContextError) {
            try ensureValid()
            return storedValue
        }
    }

    /// False once the context that handed it out was reset.
    public var isValid: Bool { context.isCurrent(generation) }

    func ensureValid() throws(SettingsContextError) {
        guard isValid else { throw .objectInvalidated(key: key.rawValue) }
    }
}

/// Why a settings unit of work failed. Technical: never shown to the user.
public enum SettingsContextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The context was reset while the operation ran.
    case contextReset
    /// The record came from before a reset of its context (where SwiftData traps).
    case objectInvalidated(key: String)
    /// The store itself failed (or a fault point threw).
    case storeFailed(String)

    public var description: String {
        switch self {
        case .contextReset: "the settings context was reset during the operation"
        case let .objectInvalidated(key): "the record for \(key) was fetched before its context was reset"
        case let .storeFailed(detail): "the store failed: \(detail)"
        }
    }
}
