import Chaos
import Foundation
import GRDB
import SystemUnderTest

/// The built-in target: the reference app of SystemUnderTest, hardened or legacy,
/// hosted by the hidden `chaos worker` subcommand. It is also the example of how a
/// user's stack becomes chaos-testable.
@MainActor
final class SystemUnderTestTarget: ChaosTarget {
    static let files = [
        "store": "app.sqlite", "wal": "app.sqlite-wal", "shm": "app.sqlite-shm", "backups": "backups",
    ]
    static let actions = [
        "favorites.add", "favorites.seed", "favorites.remove", "favorites.list", "favorites.retry", "favorites.check",
    ]
    static let probes = ["health", "surfaced", "favorites.state", "favorites.count", "favorites.error", "backups.count"]

    private let context: TargetContext
    private var app: ChaosApp?
    private let counter: RecordCounter

    init(context: TargetContext) {
        self.context = context
        counter = RecordCounter(file: context.dataDirectory.appendingPathComponent("chaos-next-id"))
    }

    private var configuration: StoreConfiguration {
        StoreConfiguration(
            directory: context.dataDirectory,
            durability: context.options["synchronous"].flatMap(Durability.init(rawValue:)) ?? .full,
            backupEveryWrites: context.options["backup-every"].flatMap(Int.init) ?? 100)
    }

    func launch() async -> ScenarioValue {
        let app = ChaosApp(variant: AppVariant(rawValue: context.variant) ?? .hardened, configuration: configuration)
        self.app = app
        return healthValue(app)
    }

    func perform(_ action: String, arguments: [String: ScenarioValue]) async throws -> ActionResult {
        guard let app else { throw TargetError("'\(action)' before launch") }
        let favorites = app.favorites
        switch action {
        case "favorites.add":
            let count = try Self.int(arguments, "count", default: 1)
            var acknowledged: [String] = []
            var attempted: [String] = []
            for id in counter.next(count) {
                let key = "favorite:\(id)"
                attempted.append(key)
                WorkerHost.record(WorkerEvent(event: .attempt, key: key))
                // A save counts as acknowledged only when the app says it is kept: in
                // in-memory mode it has told the user that changes will not survive.
                if await favorites.addFavorite(.numbered(id)), app.store?.isPersistent == true {
                    acknowledged.append(key)
                    WorkerHost.record(WorkerEvent(event: .ack, key: key))
                }
            }
            return result(ok: favorites.state != .error, favorites, acknowledged: acknowledged, attempted: attempted)
        case "favorites.seed":
            // Setup for large stores: many favourites in one transaction, below the view
            // model (a user adds one at a time; a benchmark needs 100,000).
            let count = try Self.int(arguments, "count", default: 1)
            guard let store = app.store, store.isPersistent || store.health.mode == .inMemory else {
                return ActionResult(ok: false, error: "no writable store")
            }
            let ids = counter.next(count)
            do {
                try await store.writer.write { db in
                    for id in ids { try Favorite.numbered(id).insert(db) }
                }
            } catch {
                return ActionResult(ok: false, error: String(describing: error), attempted: ids.map { "favorite:\($0)" })
            }
            let keys = ids.map { "favorite:\($0)" }
            return ActionResult(ok: true, acknowledged: keys, attempted: keys)
        case "favorites.remove":
            let id = Int64(try Self.int(arguments, "id", default: 1))
            let ok = await favorites.removeFavorite(id: id)
            return result(ok: ok, favorites, removed: ok ? ["favorite:\(id)"] : [])
        case "favorites.list":
            let ok = await favorites.load()
            var outcome = result(ok: ok, favorites)
            outcome.value = .int(favorites.favorites.count)
            outcome.isRead = ok
            return outcome
        case "favorites.retry":
            let ok = await favorites.retry()
            var outcome = result(ok: ok, favorites)
            outcome.isRead = ok && favorites.state != .error
            return outcome
        case "favorites.check":
            let id = Int64(try Self.int(arguments, "id", default: 1))
            let answer = await favorites.checkFavorite(id: id)
            var outcome = result(ok: answer != nil, favorites)
            outcome.value = answer.map(ScenarioValue.bool) ?? .null
            outcome.isRead = answer != nil
            return outcome
        default:
            throw TargetError("unknown action '\(action)'; this target answers: \(Self.actions.joined(separator: ", "))")
        }
    }

    func probe(_ name: String) async throws -> ScenarioValue {
        guard let app else { throw TargetError("probe '\(name)' before launch") }
        switch name {
        case "health": return healthValue(app)
        case "surfaced":
            let surfaced = app.favorites.surfaced
            return .map(["severity": .string(surfaced.severity.rawValue),
                         "message": surfaced.message.map(ScenarioValue.string) ?? .null])
        case "favorites.state": return .string(app.favorites.state.rawValue)
        case "favorites.count":
            _ = await app.favorites.load()
            return .int(app.favorites.favorites.count)
        case "favorites.error": return app.favorites.errorMessage.map(ScenarioValue.string) ?? .null
        case "backups.count": return .int(app.store?.backupFiles.count ?? 0)
        default:
            throw TargetError("unknown probe '\(name)'; this target answers: \(Self.probes.joined(separator: ", "))")
        }
    }

    func snapshot() async throws -> [String: [String: String]] {
        guard let store = app?.store else { return [:] }
        return try await store.writer.read { db in
            var tables: [String: [String: String]] = [:]
            for table in AppSchema.userTables {
                var records: [String: String] = [:]
                // A store without the table (a first launch that failed) holds no records.
                guard try db.tableExists(table) else { tables[table] = [:]; continue }
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id") {
                    let id: Int64 = row["id"] ?? 0
                    records["\(table):\(id)"] = row.description
                }
                tables[table] = records
            }
            return tables
        }
    }

    func stop() async {
        app?.stop()
        app = nil
    }

    private func healthValue(_ app: ChaosApp) -> ScenarioValue {
        let health = app.health
        return .map([
            "mode": .string(health.mode.rawValue),
            "healthy": .bool(health.isHealthy),
            "severity": .string(health.severity.rawValue),
            "message": health.userMessage.map(ScenarioValue.string) ?? .null,
            "loadError": health.loadError.map(ScenarioValue.string) ?? .null,
            "launchMs": .int(Int(health.launchDuration.components.seconds * 1000
                + health.launchDuration.components.attoseconds / 1_000_000_000_000_000)),
            "quarantined": .int(health.quarantinedFiles.count),
            "salvagedRows": .int(health.salvagedRows),
            "restoredBackup": health.restoredBackup.map(ScenarioValue.string) ?? .null,
        ])
    }

    private func result(ok: Bool, _ favorites: FavoritesViewModel, acknowledged: [String] = [],
                        attempted: [String] = [], removed: [String] = []) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : favorites.errorMessage,
                     error: ok ? nil : "view model state \(favorites.state.rawValue)",
                     acknowledged: acknowledged, attempted: attempted, removed: removed)
    }

    private static func int(_ arguments: [String: ScenarioValue], _ key: String, default value: Int) throws -> Int {
        switch arguments[key] {
        case nil: return value
        case let .int(number)? where number >= 0 && number <= 1_000_000: return number
        case let other?: throw TargetError("'\(key)' must be a whole number from 0 to 1000000, found \(other)")
        }
    }
}

/// Hands out record ids that stay unique across relaunches of one case: the next id
/// is kept in a file beside the app's data, outside the store under test.
struct RecordCounter {
    let file: URL

    /// The next `count` ids; they are written down before they are used.
    func next(_ count: Int) -> [Int64] {
        let current = (try? String(contentsOf: file, encoding: .utf8))
            .flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 1
        try? String(current + Int64(count)).write(to: file, atomically: true, encoding: .utf8)
        return Array(current..<(current + Int64(count)))
    }
}
