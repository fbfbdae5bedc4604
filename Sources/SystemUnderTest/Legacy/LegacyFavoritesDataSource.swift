// LEGACY — seed 002's FavouritesDataSource before the fix: `fatalError` when a fetch
// fails or a removal's save fails (`saveContext`), `try?` that swallows a failed add. See LegacyStore.swift for why it exists.
import FaultPoints
import GRDB

struct LegacyFavoritesDataSource: FavoritesDataSourceProtocol {
    let store: AppStore

    func fetchAll() async throws -> [Favorite] {
        do {
            try await FaultPoint.favoritesFetch.hit()
            return try await store.writer.read { try Favorite.order(Column("id")).fetchAll($0) }
        } catch {
            fatalError(error.localizedDescription)
        }
    }

    func isFavorite(id: Int64) async throws -> Bool {
        do {
            try await FaultPoint.favoritesPredicate.hit()
            return try await store.writer.read { try Favorite.exists($0, id: id) }
        } catch {
            fatalError(error.localizedDescription)
        }
    }

    func add(_ favorite: Favorite) async throws {
        // The old likeButtonPressed: `try? modelContext.save()`. The caller is told it worked.
        do {
            try await FaultPoint.favoritesSave.hit()
            try await store.writer.write { try favorite.upsert($0) }
        } catch {
            // swallowed, as the old `try?` did
        }
    }

    /// The old removePokemonFromFavorites: delete, then `saveContext()`, whose failure is
    /// seed 002's line 87: `fatalError("Failed to save context: …")`.
    func remove(id: Int64) async throws {
        do {
            try await FaultPoint.favoritesDelete.hit()
            _ = try await store.writer.write { try Favorite.deleteOne($0, id: id) }
        } catch {
            fatalError("Failed to save context: \(error.localizedDescription)")
        }
    }
}
