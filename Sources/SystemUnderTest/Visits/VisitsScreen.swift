/// The visits tab as the app's root shows it (seed 003's RootTabView): the launch
/// health check decides once, at launch, whether the user sees the list or the
/// data-error screen. A store that still shows the visits but cannot change them (a
/// full device, a read-only file) shows the list with a notice.
@MainActor
public final class VisitsScreen {
    public let health: VisitsHealth
    public let list: VisitsViewModel
    /// Non-nil when the data-error screen replaces the list.
    public let dataError: DataErrorViewModel?
    private let configuration: StoreConfiguration

    public init(health: VisitsHealth, list: VisitsViewModel, configuration: StoreConfiguration) {
        self.health = health
        self.list = list
        self.configuration = configuration
        dataError = health.problem?.blocksList == true ? DataErrorViewModel(health: health, configuration: configuration) : nil
    }

    public var isShowingDataError: Bool { dataError != nil }

    /// Every file the app set aside and kept (quarantined at launch or moved by a
    /// reset), relative to the data folder: proof that nothing was deleted.
    public var filesSetAside: [String] { DataReset(configuration: configuration).filesSetAside() }

    /// The non-blocking notice over the list, nil when none.
    public var notice: String? {
        switch health.problem {
        case .storageFull?: "Your device is out of storage space. You can see your visits, but new ones can't be saved until you free up some space."
        case .permissionDenied?: "Your visits can be viewed but not changed right now, because the storage is read-only."
        default: nil
        }
    }

    /// What the user sees right now: the error screen, the list's error, or the notice.
    public var surfaced: (severity: Severity, message: String?) {
        if let dataError { return (.error, dataError.message) }
        if list.state == .error { return (.error, list.errorMessage) }
        if let notice { return (.warning, notice) }
        return (.none, nil)
    }
}
