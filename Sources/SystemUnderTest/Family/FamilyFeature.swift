import Foundation

/// Where the family feature's remote is and how the feature draws its randomness:
/// app configuration, given to ``FamilyFeature/configure(_:)`` before first use.
public struct FamilyRemoteSettings: Sendable, Equatable {
    /// The registry's base URL; nil: no remote, the feature keeps families locally.
    public var baseURL: URL?
    /// The seed of codes, client ids and backoff jitter.
    public var seed: UInt64
    /// Bound on each request: a silent remote costs this, never a hang.
    public var requestTimeout: Duration

    public init(baseURL: URL?, seed: UInt64, requestTimeout: Duration = .seconds(2)) {
        self.baseURL = baseURL
        self.seed = seed
        self.requestTimeout = requestTimeout
    }

    public static let unconfigured = FamilyRemoteSettings(baseURL: nil, seed: 1)

    /// This device's id in client ids: from the seed, stable across launches.
    var deviceID: String {
        String(FamilyRandom.subseed(seed, "family/device") >> 32, radix: 16)
    }
}

/// The family feature (seed 001) of the app: its services, built once for the
/// variant, and its create screens. ``ChaosApp`` holds one; the screens share the
/// code generator and the sync service, so two creations at once never draw the
/// same code and never sync one family twice.
@MainActor
public final class FamilyFeature {
    private let variant: AppVariant
    private let store: AppStore?
    public private(set) var settings = FamilyRemoteSettings.unconfigured
    private var builtFlow: (any FamilyCreationFlow)?
    private var builtScreen: FamilyCreationViewModel?

    public init(app: ChaosApp) {
        variant = app.variant
        store = app.store
    }

    /// Points the feature at its remote. Takes effect only before first use: the
    /// services, once built, keep their settings for the launch.
    public func configure(_ settings: FamilyRemoteSettings) {
        guard builtFlow == nil else { return }
        self.settings = settings
    }

    /// True once configured with a remote.
    public var hasRemote: Bool { settings.baseURL != nil }

    /// The create screen.
    public var screen: FamilyCreationViewModel {
        if let builtScreen { return builtScreen }
        let screen = newScreen()
        builtScreen = screen
        return screen
    }

    /// Another create screen over the same services (a second tap, a second window).
    public func newScreen() -> FamilyCreationViewModel {
        FamilyCreationViewModel(flow: flow, pendingAtLaunch: flow.pendingCount(), limit: limit)
    }

    /// The launch's creation rate limit, shared by every screen (hardened only: the old
    /// code had none).
    private lazy var limit: FamilyCreationLimit? = variant == .hardened ? FamilyCreationLimit() : nil

    /// Families waiting for the remote.
    public var pendingSyncCount: Int { flow.pendingCount() }

    /// The waits between the attempts of the last sync (seed 001's backoff), as lived.
    public func lastSyncWaits() async -> [Duration] { await flow.lastSyncWaits() }

    var flow: any FamilyCreationFlow {
        if let builtFlow { return builtFlow }
        let flow = makeFlow()
        builtFlow = flow
        return flow
    }

    private func makeFlow() -> any FamilyCreationFlow {
        guard let store else { return UnavailableFamilyFlow() }
        let remote: (any FamilyRemote)? = settings.baseURL.map { HTTPFamilyRemote(baseURL: $0, timeout: settings.requestTimeout) }
        switch variant {
        case .legacy:
            return LegacyFamilyCreation(store: store, remote: remote, seed: settings.seed)
        case .hardened:
            let data = FamilyDataService(store: store, deviceID: settings.deviceID)
            // Salted with what the store holds, so a relaunch does not replay the codes
            // it already used (they would only be skipped, but each costs a lookup).
            let salt = (try? store.writer.read { try Family.fetchCount($0) }) ?? 0
            let generator = FamilyCodeGenerator(seed: FamilyRandom.subseed(settings.seed, "family/codes/\(salt)"))
            let sync = FamilySyncService(data: data, remote: remote, generator: generator,
                                         backoff: FamilyBackoff(seed: settings.seed))
            return FamilyCreationService(data: data, remote: remote, generator: generator, syncService: sync)
        }
    }
}
