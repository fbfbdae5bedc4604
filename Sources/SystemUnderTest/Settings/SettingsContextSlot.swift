import Synchronization

/// The settings context in use right now, reachable from any thread.
///
/// The `reset-context` fault resets the context from whatever thread hit its fault
/// point, where no actor or task-local reaches; so, like the fault registry itself,
/// this is process-global. It holds the context weakly: it never keeps a closed app's
/// store alive.
public final class SettingsContextSlot: Sendable {
    public static let shared = SettingsContextSlot()

    private struct Reference: Sendable {
        weak var context: SettingsContext?
    }

    private let current = Mutex(Reference())

    public init() {}

    /// Makes `context` the one a reset reaches.
    public func replace(with context: SettingsContext) {
        current.withLock { $0.context = context }
    }

    /// Resets the context in use. Returns false when there is none. Thread-safe.
    @discardableResult
    public func resetCurrent() -> Bool {
        let context = current.withLock { $0.context }
        context?.reset()
        return context != nil
    }
}
