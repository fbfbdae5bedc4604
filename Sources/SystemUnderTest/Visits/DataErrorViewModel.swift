import Foundation

/// The data-error screen (seed 003's DataErrorView): shown instead of the visits list
/// when the saved visits cannot be opened, with three ways out — restart, contact
/// support, reset data.
///
/// Restarting is the app's to do (it cannot restart itself, and must not `exit`
/// from a view): the screen records that the user asked, and the host relaunches.
/// Resetting needs an explicit confirmation and moves the files aside, never
/// deleting them.
@MainActor
public final class DataErrorViewModel {
    public enum ResetResult: Equatable, Sendable {
        /// Refused: the user has not confirmed. ``DataErrorViewModel/confirmationPrompt`` says what would happen.
        case needsConfirmation
        /// Done: these files were moved aside; the app restarts into a fresh store.
        case movedAside([String])
        /// The files could not be moved; nothing was changed.
        case failed
    }

    public let health: VisitsHealth
    public let title = "We couldn't open your visits"
    public private(set) var restartRequested = false
    /// Shown when a reset is asked for without confirmation.
    public private(set) var confirmationPrompt: String?
    /// A short message after an action (the diagnostics were saved, the reset failed...).
    public private(set) var actionMessage: String?
    public private(set) var diagnosticsFile: URL?

    static let resetPrompt = "Reset all data? Your visits will be removed from the app and it will start fresh. A copy of the old data is kept on this device for support."
    static let diagnosticsSaved = "A report for support has been saved. It contains no visits or other personal details."
    static let diagnosticsFailed = "The report for support could not be saved. Please try again."
    static let resetFailed = "Your data could not be reset. Please restart the app and try again."
    static let resetDone = "Your data has been reset. The app will restart with an empty visits log."

    private let configuration: StoreConfiguration

    public init(health: VisitsHealth, configuration: StoreConfiguration) {
        self.health = health
        self.configuration = configuration
    }

    /// What the screen says, in plain words, for the cause the health check found.
    public var message: String {
        switch health.problem {
        case .newerVersion?:
            "Your visits were saved by a newer version of this app, so this version can't open them. Nothing has been changed. Please update the app."
        case .damaged?:
            "Your saved visits could not be read. They have been kept safely so that support can try to recover them."
        case .storageFull?:
            "Your device is out of storage space. Free up some space, then restart the app."
        case .permissionDenied?:
            "The app isn't allowed to change its data right now. Restart the app, and contact support if this keeps happening."
        case .unavailable?, nil:
            "Your visits can't be opened right now. Try again, or restart the app, and contact support if this keeps happening."
        }
    }

    /// Whether the screen offers "Try again" (seed 003's `retryLoad()`, carried out by
    /// ``ChaosApp/retryLoad()``): only when the cause may pass. A damaged store set aside,
    /// a newer version's, a full or read-only one do not open by trying again.
    public var offersRetry: Bool { health.problem == .unavailable }

    /// "Restart the app": the host relaunches the app.
    public func restart() {
        restartRequested = true
    }

    /// "Contact support": writes the diagnostics file into the data folder.
    @discardableResult
    public func contactSupport() -> URL? {
        let diagnostics = SupportDiagnostics(health: health,
                                             filesSetAside: DataReset(configuration: configuration).filesSetAside().count)
        do {
            diagnosticsFile = try diagnostics.write(into: configuration.directory)
            actionMessage = Self.diagnosticsSaved
        } catch {
            actionMessage = Self.diagnosticsFailed
        }
        return diagnosticsFile
    }

    /// "Reset data": refused until `confirmed`; then the files are moved aside and the
    /// app asks to restart into a fresh store.
    @discardableResult
    public func resetData(confirmed: Bool) -> ResetResult {
        guard confirmed else {
            confirmationPrompt = Self.resetPrompt
            return .needsConfirmation
        }
        confirmationPrompt = nil
        do {
            let moved = try DataReset(configuration: configuration).moveAside()
            let base = configuration.directory.path + "/"
            actionMessage = Self.resetDone
            restartRequested = true
            return .movedAside(moved.map { $0.path.replacingOccurrences(of: base, with: "") })
        } catch {
            actionMessage = Self.resetFailed
            return .failed
        }
    }
}
