import Synchronization

/// The process-global table of armed points and hit counts.
///
/// Process-global on purpose: SQLite and NIO callbacks run on threads that task-locals
/// do not reach. The hot path reads one atomic flag; everything else takes a mutex.
/// A `decide` closure is the policy (when to fire: after N hits, N times, with a
/// probability...), written by whoever arms the point; the registry only counts hits
/// and asks it.
public final class FaultRegistry: Sendable {
    /// The registry every point consults.
    public static let shared = FaultRegistry()

    /// Non-zero while anything is armed or hits are being counted.
    @usableFromInline
    static let activeFlag = Atomic<Int>(0)

    @inlinable
    static var isActive: Bool { activeFlag.load(ordering: .relaxed) != 0 }

    /// Decides, for the Nth hit of a point (1-based), whether it fires and how.
    public typealias Decision = @Sendable (_ hit: Int) -> FaultAction?

    /// A firing, as recorded for reports.
    public struct Firing: Sendable, Equatable {
        public let point: String
        public let hit: Int
        public let action: String
    }

    private struct State {
        var armed: [String: Decision] = [:]
        /// The armed names that end in `*`, without it, longest first: matched on every
        /// hit, so kept ready rather than worked out from `armed` each time.
        var wildcards: [(prefix: String, decide: Decision)] = []
        var hits: [String: Int] = [:]
        var firings: [Firing] = []
        var counting = false

        mutating func armedChanged() {
            wildcards = armed.compactMap { pattern, decide in
                pattern.hasSuffix("*") ? (String(pattern.dropLast()), decide) : nil
            }.sorted { $0.prefix.utf8.count > $1.prefix.utf8.count || ($0.prefix.utf8.count == $1.prefix.utf8.count && $0.prefix < $1.prefix) }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Arms `point` (an exact name, or a prefix ending in `*`, as libfiu's `posix/io/*`).
    public func arm(_ point: String, decide: @escaping Decision) {
        state.withLock { state in
            state.armed[point] = decide
            state.armedChanged()
            publish(state)
        }
    }

    /// Arms `point` to fire `action` on every hit.
    public func arm(_ point: FaultPoint, always action: FaultAction) {
        arm(point.name) { _ in action }
    }

    /// Disarms one point (the same name it was armed with).
    public func disarm(_ point: String) {
        state.withLock { state in
            state.armed[point] = nil
            state.armedChanged()
            publish(state)
        }
    }

    /// Disarms every point, forgets hit counts and firings, stops counting.
    public func reset() {
        state.withLock { state in
            state = State()
            publish(state)
        }
    }

    /// Counts hits of every point even when nothing is armed (costs a lock per hit).
    public func setCounting(_ on: Bool) {
        state.withLock { state in
            state.counting = on
            publish(state)
        }
    }

    /// How many times `point` was hit while the registry was active.
    public func hitCount(_ point: String) -> Int {
        state.withLock { $0.hits[point] ?? 0 }
    }

    /// Every firing so far, oldest first.
    public var firings: [Firing] {
        state.withLock { $0.firings }
    }

    /// Names armed right now.
    public var armedPoints: [String] {
        state.withLock { $0.armed.keys.sorted() }
    }

    /// Counts the hit and asks the matching decision. Called by `FaultPoint.hit()`.
    public func fire(_ point: FaultPoint) -> FaultOutcome {
        state.withLock { state -> FaultOutcome in
            let hit = Self.increment(&state.hits[point.name, default: 0])  // one hash of the name, not two
            guard let decide = Self.decision(for: point.name, in: state),
                  let action = decide(hit) else { return .proceed }
            state.firings.append(Firing(point: point.name, hit: hit, action: Self.label(action)))
            return .fire(action, point: point, hit: hit)
        }
    }

    private static func decision(for name: String, in state: State) -> Decision? {
        if let exact = state.armed[name] { return exact }
        // Longest wildcard prefix wins (the list is sorted longest first).
        guard !state.wildcards.isEmpty else { return nil }
        return state.wildcards.first { name.utf8.starts(with: $0.prefix.utf8) }?.decide
    }

    private static func increment(_ count: inout Int) -> Int {
        count += 1
        return count
    }

    private static func label(_ action: FaultAction) -> String {
        switch action {
        case .fail: "fail"
        case .delay: "delay"
        case .call: "call"
        }
    }

    private func publish(_ state: State) {
        Self.activeFlag.store(state.armed.isEmpty && !state.counting ? 0 : 1, ordering: .relaxed)
    }
}
