import Foundation

/// The composition root of the reference app: launches the store, then builds each
/// feature for the chosen variant when it is first used. A worker process holds one of
/// these per launch.
///
/// A feature is one lazy property here, built by a factory of its own that picks the
/// hardened or the legacy code (`FavoritesFeature.viewModel(app:)`).
@MainActor
public final class ChaosApp {
    public let variant: AppVariant
    public let configuration: StoreConfiguration
    /// Nil only when not even an in-memory store could be made (see ``launchError``).
    public let store: AppStore?
    /// Set when the store could not be made at all: the app shows its error screen.
    public let launchError: StoreUnavailableError?

    // MARK: Features — one line each.
    public private(set) lazy var favorites: FavoritesViewModel = FavoritesFeature.viewModel(app: self)
    public private(set) lazy var family: FamilyFeature = FamilyFeature(app: self)
    public private(set) lazy var vocabulary: VocabularyScreens = VocabularyFeature.screens(app: self)
    public private(set) lazy var visits: VisitsScreen = VisitsFeature.screen(app: self)
    public private(set) lazy var settings: SettingsViewModel = SettingsFeature.viewModel(app: self)

    public init(variant: AppVariant, configuration: StoreConfiguration) {
        self.variant = variant
        self.configuration = configuration
        switch variant {
        case .hardened:
            do {
                store = try AppStore.launch(configuration)
                launchError = nil
            } catch {
                store = nil
                launchError = error
            }
        case .legacy:
            store = LegacyStore.launch(configuration)
            launchError = nil
        }
    }

    /// The launch health check, as seed 003's `isHealthy` / `loadError` expose it.
    public var health: StoreHealth {
        store?.health ?? StoreHealth(mode: .inMemory, userMessage: LaunchMessages.inMemory,
                                     severity: .error, loadError: launchError?.reason)
    }

    /// Graceful stop: the store takes its last backup and closes.
    public func stop() {
        store?.close()
    }
}

/// Answers every call with a container error: used only when no store exists at all.
struct UnavailableFavoritesDataSource: FavoritesDataSourceProtocol {
    private var error: DatabaseError { .containerInitializationFailed(underlying: "no store") }
    func fetchAll() async throws -> [Favorite] { throw error }
    func isFavorite(id: Int64) async throws -> Bool { throw error }
    func add(_ favorite: Favorite) async throws { throw error }
    func remove(id: Int64) async throws { throw error }
}
