/// Builds the favourites screen for the app's variant: the hardened chain, the legacy
/// data source that traps and swallows, or (no store at all) one that says so.
@MainActor
enum FavoritesFeature {
    static func viewModel(app: ChaosApp) -> FavoritesViewModel {
        guard let store = app.store else {
            return FavoritesViewModel(repository: FavoritesRepository(dataSource: UnavailableFavoritesDataSource()),
                                      launchHealth: app.health)
        }
        let dataSource: any FavoritesDataSourceProtocol = switch app.variant {
        case .hardened: FavoritesDataSource(store: store)
        case .legacy: LegacyFavoritesDataSource(store: store)
        }
        return FavoritesViewModel(repository: FavoritesRepository(dataSource: dataSource), launchHealth: store.health)
    }
}
