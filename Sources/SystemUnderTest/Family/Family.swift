import GRDB

/// A family created on this device (seed 001). Its row never changes once synced;
/// whether it still waits for the remote is kept apart, in ``FamilyPendingSync``.
public struct Family: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "family"

    public var id: Int64
    public var code: String
    public var name: String
    /// This creation's id on the remote: the device's id and the row's, kept across
    /// retries so the remote (and a check) can tell a retry from a second family.
    public var clientID: String

    public init(id: Int64, code: String, name: String, clientID: String) {
        self.id = id
        self.code = code
        self.name = name
        self.clientID = clientID
    }
}

/// A family the remote has not confirmed yet: the pending-sync queue, drained when
/// the remote can be reached.
public struct FamilyPendingSync: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "family_pending_sync"

    public var id: Int64?
    public var familyID: Int64
    /// Attempts made so far, over every launch.
    public var attempts: Int
}

/// The feature's tables, registered by `AppSchema`'s migrator.
enum FamilyTables {
    static func create(_ db: Database) throws {
        try db.create(table: Family.databaseTableName) { table in
            table.primaryKey("id", .integer)
            table.column("code", .text).notNull().unique()
            table.column("name", .text).notNull()
            table.column("clientID", .text).notNull()
        }
        try db.create(table: FamilyPendingSync.databaseTableName) { table in
            table.primaryKey("id", .integer)
            // No foreign key: salvage copies `family` row by row, and a REPLACE there must
            // not take the family's place in the queue with it.
            table.column("familyID", .integer).notNull().unique()
            table.column("attempts", .integer).notNull().defaults(to: 0)
        }
    }
}
