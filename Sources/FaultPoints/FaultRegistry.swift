import Synchronization

/// The process-global table of armed points and hit counts.
///
/// Process-global on purpose: SQLite and NIO callbacks run on threads that task-locals
/// do not reach. The hot path reads one atomic flag; everything else takes a mutex.
/// A `decide` closure is the policy (when to fire: after N hits, N times, with a
/// probability...), written by whoever arms the point; the registry only counts hits
/// and asks it.
///
/// Several armings may match one hit (two faults on one point, or an exact name and a
/// wildcard): every one is honoured. They are asked in order — exact names first, in
/// the order armed, then wildcards, longest prefix first — and each that fires adds
/// its action; the first `fail` ends the list, because the operation it fails never
/// reaches the faults after it (the fault VFS treats its calls the same way).
///
/// The control side (libfiu's and fail-rs's split): what arms, counts and reads back
/// points is `package`, for the worker, the controller and the package's own tests. App
/// code marks points (``FaultPoint``) and scopes faults to a test (``withFaults``); it
/// never drives the registry, and does not see it.
@usableFromInline
package final class FaultRegistry: Sendable {
    /// The registry every point consults.
    @usableFromInline
    package static let shared = FaultRegistry()

    /// Non-zero while anything is armed or hits are being counted (bit 0: in the shared
    /// registry), or a scope is open in some task (2 for each: ``FaultScope``).
    @usableFromInline
    static let activeFlag = Atomic<Int>(0)

    /// What this registry's armings can reach (``FaultReach``): read without the lock.
    private let armedReach = Atomic<UInt64>(0)

    static func scopeOpened() {
        activeFlag.add(2, ordering: .relaxed)
    }

    static func scopeClosed() {
        activeFlag.subtract(2, ordering: .relaxed)
    }

    @inlinable
    static var isActive: Bool { activeFlag.load(ordering: .relaxed) != 0 }

    /// What the shared registry's armings, and every open scope's, can reach
    /// (``FaultReach``), kept up to date as they change.
    @usableFromInline
    static let reachable = Atomic<UInt64>(0)

    /// Whether anything armed may reach a point of this reach: one relaxed load when
    /// nothing is armed, two when something is. False is certain; true is asked again
    /// under the lock (or of the task's scope).
    @inlinable
    static func mayReach(_ reach: UInt64) -> Bool {
        guard activeFlag.load(ordering: .relaxed) != 0 else { return false }
        return reachable.load(ordering: .relaxed) & reach != 0
    }

    /// The shared registry's own reach; the scopes' is ``FaultScope``'s.
    private static let sharedReach = Atomic<UInt64>(0)

    /// Recomputes ``reachable`` from the shared registry's reach and the open scopes'.
    static func refreshReachable() {
        reachable.store(sharedReach.load(ordering: .relaxed) | FaultScope.openReach(), ordering: .relaxed)
    }

    /// Decides, for the Nth hit of an arming (1-based: hits of every point it matches),
    /// at `point`, whether it fires and how.
    package typealias Decision = @Sendable (_ point: FaultPoint, _ hit: Int) -> FaultAction?

    private struct Arming {
        let id: String
        let pattern: String
        let decide: Decision
        var hits = 0

        /// The pattern without its trailing `*`, for a wildcard; nil for an exact name.
        var prefix: Substring? { pattern.hasSuffix("*") ? pattern.dropLast() : nil }
    }

    private struct State {
        /// In the order they are asked: exact names in arming order, then wildcards,
        /// longest prefix first (kept sorted when armed, not worked out at each hit).
        var armings: [Arming] = []
        var hits: [String: Int] = [:]
        var firings: [PointFiring] = []
        var counting = false

        mutating func sort() {
            let exact = armings.filter { $0.prefix == nil }
            let wildcards = armings.filter { $0.prefix != nil }.enumerated().sorted { lhs, rhs in
                let (left, right) = (lhs.element.prefix?.utf8.count ?? 0, rhs.element.prefix?.utf8.count ?? 0)
                return left != right ? left > right : lhs.offset < rhs.offset
            }.map(\.element)
            armings = exact + wildcards
        }
    }

    private let state = Mutex(State())

    package init() {}

    /// Arms `point` (an exact name, or a prefix ending in `*`, as libfiu's `posix/io/*`)
    /// under `id` (default: the pattern itself). Arming an id again replaces it.
    package func arm(_ point: String, id: String? = nil, decide: @escaping Decision) {
        let id = id ?? point
        state.withLock { state in
            state.armings.removeAll { $0.id == id }
            state.armings.append(Arming(id: id, pattern: point, decide: decide))
            state.sort()
            publish(state)
        }
    }

    /// Arms `point` with a decision that hears only the hit count.
    package func arm(_ point: String, id: String? = nil, decide: @escaping @Sendable (_ hit: Int) -> FaultAction?) {
        arm(point, id: id) { (_: FaultPoint, hit: Int) in decide(hit) }
    }

    /// Arms `point` to fire `action` on every hit.
    package func arm(_ point: FaultPoint, always action: FaultAction) {
        arm(point.name) { (_: FaultPoint, _: Int) in action }
    }

    /// Disarms the arming with this id (a pattern armed without an id has its pattern as id).
    package func disarm(_ id: String) {
        state.withLock { state in
            state.armings.removeAll { $0.id == id }
            publish(state)
        }
    }

    /// Disarms every point, forgets hit counts and firings, stops counting.
    package func reset() {
        state.withLock { state in
            state = State()
            publish(state)
        }
    }

    /// Counts hits of every point even when nothing is armed (costs a lock per hit).
    package func setCounting(_ on: Bool) {
        state.withLock { state in
            state.counting = on
            publish(state)
        }
    }

    /// Every point hit while the registry was active (while counting: every point hit), sorted.
    package var hitPoints: [String] {
        state.withLock { $0.hits.keys.sorted() }
    }

    /// How many times `point` was hit while the registry was active.
    package func hitCount(_ point: String) -> Int {
        state.withLock { $0.hits[point] ?? 0 }
    }

    /// How many hits the arming `id` has seen (hits of every point it matches).
    package func hits(ofArming id: String) -> Int {
        state.withLock { state in state.armings.first { $0.id == id }?.hits ?? 0 }
    }

    /// Every firing so far, oldest first.
    package var firings: [PointFiring] {
        state.withLock { $0.firings }
    }

    /// Patterns armed right now, sorted.
    package var armedPoints: [String] {
        state.withLock { $0.armings.map(\.pattern).sorted() }
    }

    /// Counts the hit and asks the matching armings: the task's scope first
    /// (``FaultScope``), then this registry's. Called by `FaultPoint.hit()`. A point no
    /// arming can reach goes on without a lock (``FaultReach``).
    @usableFromInline
    package func fire(_ point: FaultPoint) -> FaultOutcome {
        var scoped: (actions: [FaultAction], hit: Int) = ([], 0)
        if Self.activeFlag.load(ordering: .relaxed) > 1, let scope = FaultScope.current {
            scoped = scope.fire(point)
            if case .fail? = scoped.actions.last { return .fire(scoped.actions, point: point, hit: scoped.hit) }
        }
        guard armedReach.load(ordering: .relaxed) & point.reach != 0 else {
            return scoped.actions.isEmpty ? .proceed : .fire(scoped.actions, point: point, hit: scoped.hit)
        }
        let global = fireArmed(point)
        guard !scoped.actions.isEmpty else { return global }
        guard case let .fire(actions, _, _) = global else { return .fire(scoped.actions, point: point, hit: scoped.hit) }
        return .fire(scoped.actions + actions, point: point, hit: scoped.hit)
    }

    private func fireArmed(_ point: FaultPoint) -> FaultOutcome {
        state.withLock { state -> FaultOutcome in
            let hit = Self.increment(&state.hits[point.name, default: 0])  // one hash of the name, not two
            var actions: [FaultAction] = []
            var firedHit = hit
            for index in state.armings.indices where Self.matches(state.armings[index], point.name) {
                state.armings[index].hits += 1
                let armingHit = state.armings[index].hits
                guard let action = state.armings[index].decide(point, armingHit) else { continue }
                state.firings.append(PointFiring(point: point.name, id: state.armings[index].id, hit: armingHit,
                                            action: action.label))
                if actions.isEmpty { firedHit = armingHit }
                actions.append(action)
                if case .fail = action { break }
            }
            return actions.isEmpty ? .proceed : .fire(actions, point: point, hit: firedHit)
        }
    }

    private static func matches(_ arming: Arming, _ name: String) -> Bool {
        guard let prefix = arming.prefix else { return arming.pattern == name }
        return name.utf8.starts(with: prefix.utf8)
    }

    private static func increment(_ count: inout Int) -> Int {
        count += 1
        return count
    }

    private func publish(_ state: State) {
        let reach = state.counting ? FaultReach.everything : state.armings.reduce(0) { $0 | FaultReach.ofPattern($1.pattern) }
        armedReach.store(reach, ordering: .relaxed)
        guard self === Self.shared else { return }
        Self.sharedReach.store(reach, ordering: .relaxed)
        Self.refreshReachable()
        if state.armings.isEmpty && !state.counting {
            Self.activeFlag.bitwiseAnd(~1, ordering: .relaxed)
        } else {
            Self.activeFlag.bitwiseOr(1, ordering: .relaxed)
        }
    }
}
