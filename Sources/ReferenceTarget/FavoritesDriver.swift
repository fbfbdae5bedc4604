import ChaosTarget
import Foundation
import GRDB
import SystemUnderTest

/// The favourites feature (seed 002) under the built-in target.
@MainActor
final class FavoritesDriver: FeatureDriver {
    static let actions: [TargetAction<SystemUnderTestTarget>] = [
        action("favorites.add", [.int("count", in: 1...1_000_000)]) { driver, call, app in try await driver.add(call, app: app) },
        action("favorites.seed", [.int("count", in: 1...1_000_000)]) { driver, call, app in try await driver.seedStore(call, app: app) },
        action("favorites.remove", [.int("id", in: 1...1_000_000_000)]) { _, call, app in
            let favorites = app.favorites
            let id = Int64(try call.int("id", default: 1, in: 1...1_000_000_000))
            call.removing("favorite:\(id)")
            let ok = await favorites.removeFavorite(id: id)
            if ok { call.removed("favorite:\(id)") }
            return result(ok: ok, favorites)
        },
        action("favorites.list") { _, _, app in
            let ok = await app.favorites.load()
            var outcome = result(ok: ok, app.favorites)
            outcome.value = .int(app.favorites.favorites.count)
            outcome.isRead = ok
            return outcome
        },
        action("favorites.retry") { _, _, app in
            let ok = await app.favorites.retry()
            var outcome = result(ok: ok, app.favorites)
            outcome.isRead = ok && app.favorites.state != .error
            return outcome
        },
        action("favorites.check", [.int("id", in: 1...1_000_000_000)]) { _, call, app in
            let id = Int64(try call.int("id", default: 1, in: 1...1_000_000_000))
            let answer = await app.favorites.checkFavorite(id: id)
            var outcome = result(ok: answer != nil, app.favorites)
            outcome.value = answer.map(ScenarioValue.bool) ?? .null
            outcome.isRead = answer != nil
            return outcome
        },
    ]
    static let probes: [TargetProbe<SystemUnderTestTarget>] = [
        probe("favorites.state") { _, app in .string(app.favorites.state.rawValue) },
        probe("favorites.count") { _, app in
            _ = await app.favorites.load()
            return .int(app.favorites.favorites.count)
        },
        probe("favorites.error") { _, app in app.favorites.errorMessage.map(ScenarioValue.string) ?? .null },
    ]
    private let counter: RecordCounter

    init(dataDirectory: URL) {
        counter = RecordCounter(file: dataDirectory.appendingPathComponent("chaos-next-id"))
    }

    /// A user adds favourites one at a time; each is acknowledged once the app says it is kept.
    private func add(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let favorites = app.favorites
        for id in counter.next(try call.int("count", default: 1)) {
            let key = "favorite:\(id)"
            call.attempt(key)
            // A save counts as acknowledged only when the app says it is kept: in
            // in-memory mode it has told the user that changes will not survive.
            if await favorites.addFavorite(.numbered(id)), app.store?.isPersistent == true {
                call.acknowledge(key)
            }
        }
        return Self.result(ok: favorites.state != .error, favorites)
    }

    /// Setup for large stores: many favourites in one transaction, below the view model
    /// (a user adds one at a time; a benchmark needs 100,000).
    private func seedStore(_ call: ActionCall, app: ChaosApp) async throws -> ActionResult {
        let count = try call.int("count", default: 1)
        guard let store = app.store, store.isPersistent || store.health.mode == .inMemory else {
            return ActionResult(ok: false, error: "no writable store")
        }
        let keys = counter.next(count).map { "favorite:\($0)" }
        for key in keys { call.attempt(key) }
        do {
            try await store.writer.write { db in
                for key in keys { try Favorite.numbered(Int64(key.dropFirst("favorite:".count)) ?? 0).insert(db) }
            }
        } catch {
            return ActionResult(ok: false, error: String(describing: error))
        }
        // Saved to memory is not saved: the app told the user changes will not be kept
        // (found by `chaos hunt`: a seed on a full disk acknowledged what was then lost).
        guard store.isPersistent else { return .done() }
        // Below the view model, but the app's mark that the user saved data is kept.
        store.markHoldsData()
        for key in keys { call.acknowledge(key) }
        return .done()
    }

    func surfaced(app: ChaosApp) -> Surfaced {
        app.favorites.state == .error ? Surfaced(.error, app.favorites.errorMessage) : .nothing
    }

    private static func result(ok: Bool, _ favorites: FavoritesViewModel) -> ActionResult {
        ActionResult(ok: ok, userMessage: ok ? nil : favorites.errorMessage,
                     error: ok ? nil : "view model state \(favorites.state.rawValue)")
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
