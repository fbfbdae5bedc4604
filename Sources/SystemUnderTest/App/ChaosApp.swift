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
    public private(set) var store: AppStore?
    /// Set when the store could not be made at all: the app shows its error screen.
    public private(set) var launchError: StoreUnavailableError?

    // MARK: Features — each built from the store when first used, again after a reload.
    public var favorites: FavoritesViewModel { feature(\.favorites) { FavoritesFeature.viewModel(app: $0) } }
    public var family: FamilyFeature { feature(\.family) { FamilyFeature(app: $0) } }
    public var vocabulary: VocabularyScreens { feature(\.vocabulary) { VocabularyFeature.screens(app: $0) } }
    public var visits: VisitsScreen { feature(\.visits) { VisitsFeature.screen(app: $0) } }
    public var settings: SettingsViewModel { feature(\.settings) { SettingsFeature.viewModel(app: $0) } }

    /// The features built so far, over the current store.
    private struct Features {
        var favorites: FavoritesViewModel?
        var family: FamilyFeature?
        var vocabulary: VocabularyScreens?
        var visits: VisitsScreen?
        var settings: SettingsViewModel?
    }
    private var features = Features()

    private func feature<Feature>(_ slot: WritableKeyPath<Features, Feature?>, _ make: (ChaosApp) -> Feature) -> Feature {
        if let built = features[keyPath: slot] { return built }
        let built = make(self)
        features[keyPath: slot] = built
        return built
    }

    public init(variant: AppVariant, configuration: StoreConfiguration) {
        self.variant = variant
        self.configuration = configuration
        switch variant {
        case .hardened:
            (store, launchError) = Self.launchHardened(configuration)
        case .legacy:
            store = LegacyStore.launch(configuration)
            launchError = nil
        }
    }

    /// Seed 003's `retryLoad()`, the data-error screen's "Try again": when the launch
    /// could not open the store for a passing cause (it left the file untouched and runs
    /// on memory: an I/O error, a file it could not open), the store is opened again,
    /// and every screen is built anew over it. A damaged store that was set aside, or a
    /// newer version's, is not retried: opening it again cannot help, and a fresh empty
    /// store would hide what happened. Returns whether the store is now on disk.
    public func retryLoad() -> Bool {
        guard variant == .hardened, Self.mayRetry(health) else { return store?.isPersistent ?? false }
        store?.close()
        (store, launchError) = Self.launchHardened(configuration)
        features = Features()
        let reopened = store?.isPersistent ?? false
        AppLog.store.log(level: reopened ? .notice : .warning, "Retried opening the store",
                         metadata: ["mode": "\(health.mode.rawValue)"])
        return reopened
    }

    /// The hardened launch: the store, or why not even an in-memory one could be made.
    private static func launchHardened(_ configuration: StoreConfiguration) -> (AppStore?, StoreUnavailableError?) {
        do {
            return (try AppStore.launch(configuration), nil)
        } catch {
            return (nil, error)
        }
    }

    /// Whether opening the store again may help: nothing was set aside, no newer version.
    static func mayRetry(_ health: StoreHealth) -> Bool {
        health.mode == .inMemory && health.quarantinedFiles.isEmpty && !health.newerSchema
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
