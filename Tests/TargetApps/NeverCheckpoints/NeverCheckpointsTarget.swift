import CSQLite
import ChaosTarget
import Foundation

/// A test app in a style of its own: the raw SQLite C API, WAL mode, automatic
/// checkpoints off, and a stop that never closes the connection (the process just
/// ends). Every page it writes stays in `notes.sqlite-wal`: damage to `notes.sqlite`
/// lands where SQLite does not read, which Chaos must call inconclusive, not passed.
///
/// It writes as most apps write: it acknowledges a note once the INSERT has returned
/// and announces nothing before (it could not: the key is the rowid the insert makes).
/// `--option synchronous=off|normal|full` (default full) sets SQLite's durability.
@main
final class NeverCheckpointsTarget: ChaosTarget {
    static let files = ["store": "notes.sqlite"]
    static let workload: Workload? = Workload(write: "note.add", read: "note.list")
    static let options = [TargetOption("synchronous", .choice(["off", "normal", "full"]), summary: "SQLite's durability (default full)")]
    static let actions: [TargetAction<NeverCheckpointsTarget>] = [
        TargetAction("note.add") { target, call in target.add(call) },
        TargetAction("note.list") { target, _ in target.list() },
    ]

    private let path: String
    private let synchronous: String
    private var db: OpaquePointer?
    private var problem: String?

    init(context: TargetContext) {
        try? FileManager.default.createDirectory(at: context.dataDirectory, withIntermediateDirectories: true)
        path = context.dataDirectory.appendingPathComponent("notes.sqlite").path
        let asked = context.options["synchronous"]?.uppercased() ?? "FULL"
        synchronous = ["OFF", "NORMAL", "FULL"].contains(asked) ? asked : "FULL"
    }

    func launch() async -> Health {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK,
              exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; PRAGMA synchronous=\(synchronous);"
                + "CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)") else {
            problem = "Your notes can't be opened."
            return health
        }
        return health
    }

    var health: Health { problem.map { Health(mode: .inMemory, severity: .error, message: $0) } ?? Health() }
    var surfaced: Surfaced { problem.map(Surfaced.error) ?? .nothing }

    private func add(_ call: ActionCall) -> ActionResult {
        guard exec("INSERT INTO note(text) VALUES ('a note')") else { return .failed("Your note could not be saved.") }
        call.acknowledge("note:\(sqlite3_last_insert_rowid(db))")
        return .done()
    }

    private func list() -> ActionResult {
        guard let ids = try? ids() else { return .failed("Your notes could not be read.") }
        return .read(.int(ids.count))
    }

    func snapshot() async throws -> [String: [String: String]] {
        ["note": Dictionary(uniqueKeysWithValues: try ids().map { ("note:\($0)", "a note") })]
    }

    /// Leaves the connection open: the WAL is never checkpointed, as in an app that is
    /// simply killed by the system after a few small writes.
    func stop() async {}

    private func exec(_ sql: String) -> Bool { sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK }

    private func ids() throws -> [Int64] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT id FROM note ORDER BY id", -1, &statement, nil) == SQLITE_OK else {
            throw TargetError("cannot read the notes")
        }
        defer { sqlite3_finalize(statement) }
        var ids: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { ids.append(sqlite3_column_int64(statement, 0)) }
        return ids
    }
}
