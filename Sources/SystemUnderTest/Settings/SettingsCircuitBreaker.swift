/// The circuit breaker over the settings store (seed 004), as a value: the state
/// machine alone, with no store and no clock of its own, so every transition can be
/// tested directly.
///
/// ```
/// closed ──store error / context reset──▶ open ──new context──▶ half-open
///    ▲                                     ▲                        │
///    └────────────── success ──────────────┼────────────────────────┘
///                                          └──────── failure ───────┘
/// ```
///
/// While open, settings are read from and written to the fallback file. A new context
/// is provided when the settings screen appears again, or on the first operation after
/// ``coolDown`` has passed since the breaker opened. Time is `ContinuousClock` time,
/// never the wall clock: a clock that jumps must not close (or hold open) the breaker.
public struct SettingsCircuitBreaker: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case closed
        case open
        case halfOpen = "half-open"
    }

    public private(set) var state: State = .closed
    /// When the breaker last opened.
    public private(set) var openedAt: ContinuousClock.Instant?
    /// How long the breaker stays open before the next operation tries a new context.
    public let coolDown: Duration
    /// How many times it opened: a number for the screen's diagnostics and the tests.
    public private(set) var timesOpened = 0

    public init(coolDown: Duration = .seconds(30)) {
        self.coolDown = coolDown
    }

    /// True when an operation may go to the store (closed, or trying it half-open).
    public var allowsStore: Bool { state != .open }

    /// A store operation failed or the context was reset: stop using the store.
    public mutating func recordFailure(at now: ContinuousClock.Instant) {
        if state != .open { timesOpened += 1 }
        state = .open
        openedAt = now
    }

    /// A new context was provided: try the store again.
    public mutating func contextProvided() {
        if state == .open { state = .halfOpen }
    }

    /// A store operation worked: half-open closes.
    public mutating func recordSuccess() {
        if state == .halfOpen { state = .closed; openedAt = nil }
    }

    /// True when the breaker is open and its cool-down has passed.
    public func isCoolDownOver(at now: ContinuousClock.Instant) -> Bool {
        guard state == .open, let openedAt else { return false }
        return now - openedAt >= coolDown
    }
}
