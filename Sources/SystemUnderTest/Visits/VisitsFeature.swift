/// Builds the visits tab for the app's variant: the hardened launch health check, or
/// the legacy container load that traps on a load error; then the list over the store
/// (or, with no store at all, over a data source that says so).
@MainActor
enum VisitsFeature {
    static func screen(app: ChaosApp) -> VisitsScreen {
        let health: VisitsHealth = switch app.variant {
        case .hardened: VisitsHealth.check(store: app.store, launchError: app.launchError?.reason)
        case .legacy: LegacyVisitsContainer.load(store: app.store)
        }
        let dataSource: any VisitsDataSourceProtocol = app.store.map { VisitsDataSource(store: $0) } ?? UnavailableVisitsDataSource()
        return VisitsScreen(health: health, list: VisitsViewModel(repository: VisitsRepository(dataSource: dataSource)),
                            configuration: app.configuration)
    }
}

/// Answers every call with a container error: used only when no store exists at all.
struct UnavailableVisitsDataSource: VisitsDataSourceProtocol {
    private var error: DatabaseError { .containerInitializationFailed(underlying: "no store") }
    func fetchAll() async throws -> [Visit] { throw error }
    func add(_ visit: Visit) async throws { throw error }
    func remove(id: Int64) async throws { throw error }
}
