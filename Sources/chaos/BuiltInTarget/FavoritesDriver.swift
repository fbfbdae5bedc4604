import Chaos
import Foundation
import GRDB
import SystemUnderTest

/// The favourites feature (seed 002) under the built-in target.
@MainActor
final class FavoritesDriver: FeatureDriver {
    let actions = [
        "favorites.add", "favorites.seed", "favorites.remove", "favorites.list", "favorites.retry", "favorites.check",
    ]
    let probes = ["favorites.state", "favorites.count", "favorites.error"]
    private let counter: RecordCounter

    init(dataDirectory: URL) {
        counter = RecordCounter(file: dataDirectory.appendingPathComponent("chaos-next-id"))
    }

    func perform(_ action: String, arguments: [String: ScenarioValue], app: ChaosApp) async throws -> ActionResult? {
        let favorites = app.favorites
        switch action {
        case "favorites.add":
            return try await add(arguments, app: app)
        case "favorites.seed":
            return try await seedStore(arguments, app: app)
        case "favorites.remove":
            let id = Int64(try Arguments.int(arguments, "id", default: 1))
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
            let id = Int64(try Arguments.int(arguments, "id", default: 1))
            let answer = await favorites.checkFavorite(id: id)
            var outcome = result(ok: answer != nil, favorites)
            outcome.value = answer.map(ScenarioValue.bool) ?? .null
            outcome.isRead = answer != nil
            return outcome
        default:
            return nil
        }
    }

    /// A user adds favourites one at a time; each is acknowledged once the app says it is kept.
    private func add(_ arguments: [String: ScenarioValue], app: ChaosApp) async throws -> ActionResult {
        let favorites = app.favorites
        let count = try Arguments.int(arguments, "count", default: 1)
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
    }

    /// Setup for large stores: many favourites in one transaction, below the view model
    /// (a user adds one at a time; a benchmark needs 100,000).
    private func seedStore(_ arguments: [String: ScenarioValue], app: ChaosApp) async throws -> ActionResult {
        let count = try Arguments.int(arguments, "count", default: 1)
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
    }

    func probe(_ name: String, app: ChaosApp) async throws -> ScenarioValue? {
        switch name {
        case "favorites.state": return .string(app.favorites.state.rawValue)
        case "favorites.count":
            _ = await app.favorites.load()
            return .int(app.favorites.favorites.count)
        case "favorites.error": return app.favorites.errorMessage.map(ScenarioValue.string) ?? .null
        default: return nil
        }
    }

    func surfaced(app: ChaosApp) -> (severity: Severity, message: String?) {
        app.favorites.state == .error ? (.error, app.favorites.errorMessage) : (.none, nil)
    }

    private func result(ok: Bool, _ favorites: FavoritesViewModel, acknowledged: [String] = [],
                        attempted: [String] = [], removed: [String] = []) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : favorites.errorMessage,
                     error: ok ? nil : "view model state \(favorites.state.rawValue)",
                     acknowledged: acknowledged, attempted: attempted, removed: removed)
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
