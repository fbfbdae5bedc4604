import GRDB

/// The family feature's store operations (seed 001's "resilient DataService"): every
/// failure is thrown, none traps. A family and its place in the pending-sync queue
/// are written in one transaction, so no family is ever stored without being queued.
public struct FamilyDataService: Sendable {
    /// A store operation failed; the detail is for diagnostics.
    public struct StoreError: Error, Sendable, Equatable {
        public var detail: String
    }

    public enum Creation: Sendable, Equatable {
        case created(Family)
        /// Another family on this device already has the code.
        case codeTaken
    }

    let store: AppStore
    /// Identifies this device in client ids.
    let deviceID: String

    public init(store: AppStore, deviceID: String) {
        self.store = store
        self.deviceID = deviceID
    }

    public func codeExists(_ code: FamilyCode) async throws(StoreError) -> Bool {
        try await run { try await store.writer.read { try Family.filter(Column("code") == code.text).fetchCount($0) > 0 } }
    }

    /// Stores a new family with `code` and queues it for sync. The UNIQUE constraint
    /// is the last word on local uniqueness: two creations racing for one code get
    /// one family and one ``Creation/codeTaken``.
    public func create(name: String, code: FamilyCode) async throws(StoreError) -> Creation {
        let deviceID = deviceID
        let creation: Creation = try await run {
            do {
                return try await store.writer.write { db -> Creation in
                    if try Family.filter(Column("code") == code.text).fetchCount(db) > 0 { return .codeTaken }
                    let id = (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM family") ?? 0) + 1
                    let family = Family(id: id, code: code.text, name: name, clientID: "\(deviceID)-\(id)")
                    try family.insert(db)
                    try FamilyPendingSync(id: nil, familyID: id, attempts: 0).insert(db)
                    return .created(family)
                }
            } catch let error as GRDB.DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                return .codeTaken
            }
        }
        if case .created = creation { store.didWrite() }
        return creation
    }

    /// Gives a queued family a new code (the remote holds its old one for someone else).
    public func replaceCode(of family: Family, with code: FamilyCode) async throws(StoreError) -> Creation {
        try await run {
            do {
                return try await store.writer.write { db -> Creation in
                    if try Family.filter(Column("code") == code.text).fetchCount(db) > 0 { return .codeTaken }
                    var updated = family
                    updated.code = code.text
                    try updated.update(db)
                    return .created(updated)
                }
            } catch let error as GRDB.DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                return .codeTaken
            }
        }
    }

    /// The family is on the remote: it leaves the queue.
    public func markSynced(_ family: Family) async throws(StoreError) {
        try await run {
            _ = try await store.writer.write { try FamilyPendingSync.filter(Column("familyID") == family.id).deleteAll($0) }
        }
        store.didWrite()
    }

    /// Counts one more sync attempt for a queued family.
    public func recordAttempt(_ family: Family) async throws(StoreError) {
        try await run {
            try await store.writer.write {
                try $0.execute(sql: "UPDATE family_pending_sync SET attempts = attempts + 1 WHERE familyID = ?",
                               arguments: [family.id])
            }
        }
    }

    /// Families waiting for the remote, oldest first.
    public func pending() async throws(StoreError) -> [Family] {
        try await run {
            try await store.writer.read { db in
                try Family.fetchAll(db, sql: """
                    SELECT family.* FROM family JOIN family_pending_sync ON family_pending_sync.familyID = family.id
                    ORDER BY family.id
                    """)
            }
        }
    }

    public func families() async throws(StoreError) -> [Family] {
        try await run { try await store.writer.read { try Family.order(Column("id")).fetchAll($0) } }
    }

    /// Seed 001's `validateDatabaseState()`, before any operation that writes: the store
    /// is on a file it may change (not a read-only one) and holds the family tables. An
    /// in-memory store passes: the app has told the user changes won't be kept.
    public func validateDatabaseState() async throws(StoreError) {
        guard store.health.mode != .readOnly else {
            throw StoreError(detail: "the store is read-only: \(store.health.loadError ?? "not writable")")
        }
        let ready = try await run { try await store.writer.read { try $0.tableExists("family") && $0.tableExists("family_pending_sync") } }
        guard ready else { throw StoreError(detail: "the store has no family tables") }
    }

    /// Seed 001's `fetchFamilySafely(byCode:)`: the family on this device with `code`, or nil.
    public func family(code: FamilyCode) async throws(StoreError) -> Family? {
        try await run { try await store.writer.read { try Family.filter(Column("code") == code.text).fetchOne($0) } }
    }

    /// Keeps a family joined from the remote on this device (already on the remote: not queued).
    public func saveJoined(_ remote: RemoteFamily) async throws(StoreError) -> Family {
        let family = try await run {
            try await store.writer.write { db -> Family in
                if let known = try Family.filter(Column("code") == remote.code).fetchOne(db) { return known }
                let id = (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM family") ?? 0) + 1
                let family = Family(id: id, code: remote.code, name: remote.name, clientID: remote.clientID)
                try family.insert(db)
                return family
            }
        }
        store.didWrite()
        return family
    }

    /// How many families wait for the remote; nil when the store cannot say.
    public func pendingCount() -> Int? {
        try? store.writer.read { try FamilyPendingSync.fetchCount($0) }
    }

    private func run<Value>(_ body: () async throws -> Value) async throws(StoreError) -> Value {
        do {
            return try await body()
        } catch {
            throw StoreError(detail: DatabaseError.describe(error))
        }
    }
}
