/// The repository the use cases see. It passes errors up unchanged: the data source
/// already made them typed and presentable.
public protocol FavoritesRepositoryProtocol: Sendable {
    func addFavorite(_ favorite: Favorite) async throws
    func removeFavorite(id: Int64) async throws
    func fetchAllFavorites() async throws -> [Favorite]
    func isFavorite(id: Int64) async throws -> Bool
}

public struct FavoritesRepository: FavoritesRepositoryProtocol {
    let dataSource: any FavoritesDataSourceProtocol

    public init(dataSource: any FavoritesDataSourceProtocol) {
        self.dataSource = dataSource
    }

    public func addFavorite(_ favorite: Favorite) async throws { try await dataSource.add(favorite) }
    public func removeFavorite(id: Int64) async throws { try await dataSource.remove(id: id) }
    public func fetchAllFavorites() async throws -> [Favorite] { try await dataSource.fetchAll() }
    public func isFavorite(id: Int64) async throws -> Bool { try await dataSource.isFavorite(id: id) }
}
