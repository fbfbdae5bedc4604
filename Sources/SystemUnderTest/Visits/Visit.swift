import GRDB

/// One entry of the visits log (seed 003): a place the user visited, with a note.
/// The day is the user's own label, never read from the clock; the list is ordered
/// by id, which only grows.
public struct Visit: Codable, Sendable, Equatable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "visit"

    public var id: Int64
    public var placeName: String
    public var note: String
    public var day: String

    public init(id: Int64, placeName: String, note: String, day: String) {
        self.id = id
        self.placeName = placeName
        self.note = note
        self.day = day
    }

    /// The visit a scenario adds for a given number: stable, so snapshots compare.
    public static func numbered(_ id: Int64) -> Visit {
        Visit(id: id, placeName: "Place \(id)", note: "Visited place number \(id)",
              day: "2025-11-\((Int(id % 28) + 1).zeroPadded(width: 2))")
    }
}

/// The visits log's table, created by the `v-visits` migration of ``AppSchema``.
enum VisitsTables {
    static func create(_ db: Database) throws {
        try db.create(table: Visit.databaseTableName) { table in
            table.primaryKey("id", .integer)
            table.column("placeName", .text).notNull()
            table.column("note", .text).notNull()
            table.column("day", .text).notNull()
        }
    }
}
