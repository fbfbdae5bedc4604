/// The favourites use cases (seed 002): thin, `async throws`, one job each.
public struct AddFavoriteUseCase: Sendable {
    let repository: any FavoritesRepositoryProtocol
    public init(repository: any FavoritesRepositoryProtocol) { self.repository = repository }
    public func execute(_ favorite: Favorite) async throws { try await repository.addFavorite(favorite) }
}

public struct RemoveFavoriteUseCase: Sendable {
    let repository: any FavoritesRepositoryProtocol
    public init(repository: any FavoritesRepositoryProtocol) { self.repository = repository }
    public func execute(id: Int64) async throws { try await repository.removeFavorite(id: id) }
}

public struct FetchAllFavoritesUseCase: Sendable {
    let repository: any FavoritesRepositoryProtocol
    public init(repository: any FavoritesRepositoryProtocol) { self.repository = repository }
    public func execute() async throws -> [Favorite] { try await repository.fetchAllFavorites() }
}

public struct IsFavoriteUseCase: Sendable {
    let repository: any FavoritesRepositoryProtocol
    public init(repository: any FavoritesRepositoryProtocol) { self.repository = repository }
    public func execute(id: Int64) async throws -> Bool { try await repository.isFavorite(id: id) }
}
