import FaultPoints
import GRDB

/// The favourites data layer's contract. Every method throws ``DatabaseError``.
public protocol FavoritesDataSourceProtocol: Sendable {
    func fetchAll() async throws -> [Favorite]
    func isFavorite(id: Int64) async throws -> Bool
    func add(_ favorite: Favorite) async throws
    func remove(id: Int64) async throws
}

/// The hardened data source: every failure becomes a typed, user-presentable error.
public struct FavoritesDataSource: FavoritesDataSourceProtocol {
    let store: AppStore

    public init(store: AppStore) {
        self.store = store
    }

    public func fetchAll() async throws -> [Favorite] {
        do {
            try await FaultPoint.favoritesFetch.hit()
            return try await store.writer.read { try Favorite.order(Column("id")).fetchAll($0) }
        } catch {
            throw DatabaseError.fetchFailed(operation: "favorites", underlying: DatabaseError.describe(error))
        }
    }

    public func isFavorite(id: Int64) async throws -> Bool {
        do {
            try await FaultPoint.favoritesPredicate.hit()
            return try await store.writer.read { try Favorite.exists($0, id: id) }
        } catch {
            throw DatabaseError.predicateFailed(underlying: DatabaseError.describe(error))
        }
    }

    public func add(_ favorite: Favorite) async throws {
        do {
            try await FaultPoint.favoritesSave.hit()
            try await store.writer.write { try favorite.upsert($0) }
        } catch {
            throw writeError(error) { .saveFailed(underlying: $0) }
        }
        store.didWrite()
    }

    public func remove(id: Int64) async throws {
        do {
            try await FaultPoint.favoritesDelete.hit()
            _ = try await store.writer.write { try Favorite.deleteOne($0, id: id) }
        } catch {
            throw writeError(error) { .deleteFailed(operation: "favorite", underlying: $0) }
        }
        store.didWrite()
    }

    /// A refused write says why: read-only storage, or (read-only because the device is
    /// full) the save failure that asks the user to free up space.
    private func writeError(_ error: any Error, otherwise: (String) -> DatabaseError) -> DatabaseError {
        let detail = DatabaseError.describe(error)
        guard DatabaseError.isReadOnly(error) else { return otherwise(detail) }
        return store.health.storageFull ? .saveFailed(underlying: detail) : .readOnly(underlying: detail)
    }
}
