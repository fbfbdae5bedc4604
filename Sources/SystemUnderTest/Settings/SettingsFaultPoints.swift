import FaultPoints

/// The fault point of the settings unit of work, declared beside the code that hits it.
/// Every fetch and save of a ``SettingsContext`` hits it first; `reset-context` resets
/// the context there, `throw` makes the store operation fail.
public extension FaultPoint {
    static let settingsContext = FaultPoint("store/settings/context")
}
