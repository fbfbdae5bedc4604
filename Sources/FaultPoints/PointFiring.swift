/// A fault that fired at a point: which point, which arming, which hit, what it did.
///
/// Public because a unit test reads what fired in its scope
/// (`FaultScope.current?.firings`); the registry's own record for a worker's reports is
/// the same value. Only FaultPoints makes one: a test reads it, never forges it.
public struct PointFiring: Sendable, Equatable {
    /// The point's name.
    public let point: String
    /// The id the firing arming was armed with (its pattern when none was given; a
    /// scoped fault's pattern).
    public let id: String
    /// The arming's hit count when it fired (1 for the first hit).
    public let hit: Int
    /// What the fault did: `fail`, `delay` or `call`.
    public let action: String

    init(point: String, id: String, hit: Int, action: String) {
        self.point = point
        self.id = id
        self.hit = hit
        self.action = action
    }
}
