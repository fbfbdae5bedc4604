import Synchronization

/// Faults armed for one task and the tasks it starts, and for no one else: a unit test
/// arms its own, and two tests in parallel never see each other's (fail-rs's registry
/// is global, and its users must run such tests one at a time).
///
/// ```swift
/// try await withFaults([.throw(at: "store/notes/save", times: 1)]) {
///     #expect(throws: NotesProblem.self) { try repository.add(text: "a note") }
///     _ = try repository.add(text: "saved this time")
/// }
/// ```
///
/// The scope is a task-local value: a point hit in the task, or in a child task, sees
/// it; a point hit on a thread the task does not run on (a GRDB writer's dispatch queue,
/// a SQLite callback) does not. Points armed process-wide (by a Chaos worker, through
/// the registry that app code does not see) fire as well, after the scope's own.
///
/// Public only so far as a test reads it: `FaultScope.current?.firings`. It is opened
/// by ``withFaults(_:operation:)`` alone.
public final class FaultScope: Sendable {
    /// The scope of the running task, if it has one.
    @TaskLocal public static var current: FaultScope?

    /// The reach of each scope open now, in any task (by identity).
    private static let openScopes = Mutex<[ObjectIdentifier: UInt64]>([:])

    /// What the scopes open now can reach, together.
    static func openReach() -> UInt64 {
        openScopes.withLock { $0.values.reduce(0, |) }
    }

    /// A scope opens or closes: the points it reaches start or stop asking their task.
    static func opened(_ scope: FaultScope) {
        openScopes.withLock { $0[ObjectIdentifier(scope)] = scope.reach }
        FaultRegistry.scopeOpened()
        FaultRegistry.refreshReachable()
    }

    static func closed(_ scope: FaultScope) {
        openScopes.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(scope)) }
        FaultRegistry.refreshReachable()
        FaultRegistry.scopeClosed()
    }

    private let armings: [Arming]
    private let fired = Mutex<[PointFiring]>([])
    private let outer: FaultScope?
    /// What any of the scope's armings can reach (``FaultReach``).
    let reach: UInt64

    init(_ faults: [ScopedFault], inside outer: FaultScope?) {
        armings = (outer?.armings ?? []) + faults.map(Arming.init)
        self.outer = outer
        reach = armings.reduce(0) { $0 | FaultReach.ofPattern($1.fault.pattern) }
    }

    /// Every firing in this scope so far, oldest first (an inner scope's included).
    public var firings: [PointFiring] {
        fired.withLock { $0 }
    }

    /// The actions of the scope's armings that fire at this hit, in the order armed, and
    /// the first firing arming's hit count.
    func fire(_ point: FaultPoint) -> (actions: [FaultAction], hit: Int) {
        guard reach & point.reach != 0 else { return ([], 0) }
        var actions: [FaultAction] = []
        var firstHit = 0
        for arming in armings where arming.fault.matches(point.name) {
            guard let (action, hit) = arming.hit() else { continue }
            record(PointFiring(point: point.name, id: arming.fault.pattern, hit: hit, action: action.label))
            if actions.isEmpty { firstHit = hit }
            actions.append(action)
            if case .fail = action { break }
        }
        return (actions, firstHit)
    }

    /// A firing is the scope's, and every enclosing scope's.
    private func record(_ firing: PointFiring) {
        var scope: FaultScope? = self
        while let current = scope {
            current.fired.withLock { $0.append(firing) }
            scope = current.outer
        }
    }

    /// One scoped fault and its hit count (shared by the scopes nested inside).
    final class Arming: Sendable {
        let fault: ScopedFault
        private let hits = Mutex(0)

        init(_ fault: ScopedFault) {
            self.fault = fault
        }

        /// Counts a hit; the action and the hit number when it fires.
        func hit() -> (FaultAction, Int)? {
            hits.withLock { count in
                count += 1
                let firstFiring = fault.after + 1
                guard count >= firstFiring else { return nil }
                if let times = fault.times, count >= firstFiring + times { return nil }
                return (fault.action, count)
            }
        }
    }
}

/// A fault for ``withFaults(_:operation:)``: at a point (an exact name, or a prefix ending
/// in `*`), after `after` hits, `times` times (nil: every hit from then on).
public struct ScopedFault: Sendable {
    public let pattern: String
    public let action: FaultAction
    public let after: Int
    public let times: Int?

    public init(at pattern: String, action: FaultAction, after: Int = 0, times: Int? = nil) {
        self.pattern = pattern
        self.action = action
        self.after = max(0, after)
        self.times = times.map { max(0, $0) }
    }

    /// The point throws an ``InjectedFault`` with `message`.
    public static func `throw`(at pattern: String, message: String = "injected failure", after: Int = 0, times: Int? = nil) -> ScopedFault {
        ScopedFault(at: pattern, action: .fail(message: message), after: after, times: times)
    }

    /// The point waits `duration` before going on.
    public static func delay(at pattern: String, by duration: Duration, after: Int = 0, times: Int? = nil) -> ScopedFault {
        ScopedFault(at: pattern, action: .delay(duration), after: after, times: times)
    }

    func matches(_ name: String) -> Bool {
        guard pattern.hasSuffix("*") else { return pattern == name }
        return name.utf8.starts(with: pattern.dropLast().utf8)
    }
}

/// Runs `operation` with `faults` armed for its task and the tasks it starts, and for no
/// other. Nested, the inner scope adds to the outer.
public func withFaults<Result>(_ faults: [ScopedFault], isolation: isolated (any Actor)? = #isolation,
                               operation: () async throws -> Result) async rethrows -> Result {
    let scope = FaultScope(faults, inside: FaultScope.current)
    FaultScope.opened(scope)
    defer { FaultScope.closed(scope) }
    return try await FaultScope.$current.withValue(scope, operation: operation, isolation: isolation)
}

/// The same, for synchronous code.
public func withFaults<Result>(_ faults: [ScopedFault], operation: () throws -> Result) rethrows -> Result {
    let scope = FaultScope(faults, inside: FaultScope.current)
    FaultScope.opened(scope)
    defer { FaultScope.closed(scope) }
    return try FaultScope.$current.withValue(scope, operation: operation)
}
