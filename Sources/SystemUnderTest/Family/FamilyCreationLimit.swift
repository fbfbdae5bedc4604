/// Seed 001's rate limiting: "prevent abuse of code generation and family creation".
/// At most ``maximum`` families created in any ``window``, counted on the monotonic
/// clock, so a wall clock set back cannot reset it. One per app launch, shared by every
/// create screen (two screens at once do not double the allowance).
@MainActor
public final class FamilyCreationLimit {
    public let maximum: Int
    public let window: Duration
    private let clock = ContinuousClock()
    private var created: [ContinuousClock.Instant] = []

    public init(maximum: Int = 10, window: Duration = .seconds(60)) {
        self.maximum = maximum
        self.window = window
    }

    /// Whether another creation may start now.
    public var allowsAnother: Bool {
        let now = clock.now
        created.removeAll { now - $0 >= window }
        return created.count < maximum
    }

    /// A family was created.
    public func recordCreation() {
        created.append(clock.now)
    }
}
