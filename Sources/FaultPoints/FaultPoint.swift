import Synchronization

/// A named place in app code where a fault can be injected.
///
/// Declare a point as a static constant beside the code that hits it, named as a
/// path `layer/component/operation[/moment]`:
///
/// ```swift
/// extension FaultPoint {
///     static let favoritesFetch = FaultPoint("store/favorites/fetch")
/// }
///
/// func fetchAll() throws -> [Favorite] {
///     try FaultPoint.favoritesFetch.hit()
///     ...
/// }
/// ```
///
/// When nothing is armed anywhere, `hit()` costs one relaxed atomic load; while other
/// points are armed, or a scope is open in another task, a few nanoseconds more (no
/// lock). When the package is built without the `FaultPointsEnabled` trait it costs
/// nothing at all.
public struct FaultPoint: Sendable, Hashable, CustomStringConvertible {
    /// The point's path, for example `store/favorites/fetch`.
    public let name: String
    /// Which armings can reach it (``FaultReach``), worked out once.
    @usableFromInline let reach: UInt64

    public init(_ name: String) {
        self.name = name
        reach = FaultReach.of(name)
    }

    public var description: String { name }

    /// Marks the point in synchronous code: throws an ``InjectedFault`` when an armed
    /// fault decides to fail here, blocks the thread for a `delay`, runs a callback.
    @inlinable
    public func hit() throws {
        #if FAULT_POINTS_ENABLED
        guard FaultRegistry.mayReach(reach) else { return }
        try FaultRegistry.shared.fire(self).performSync()
        #endif
    }

    /// Marks the point in asynchronous code: as ``hit()``, but a `delay` suspends.
    @inlinable
    public func hit() async throws {
        #if FAULT_POINTS_ENABLED
        guard FaultRegistry.mayReach(reach) else { return }
        try await FaultRegistry.shared.fire(self).performAsync()
        #endif
    }
}
