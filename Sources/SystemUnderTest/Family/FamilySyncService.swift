/// Puts families created on this device on the remote (seed 001's "robust
/// CloudKitService"): one family at a time, each at most once on the remote.
///
/// - A registration whose answer was lost (the connection broke after the remote did
///   the work) is retried with ``FamilyBackoff``; the retry's 409 is recognised by
///   the client id as this creation's own, and the family is marked synced: synced
///   once, never twice.
/// - A 409 for someone else's family gives this one a new code and tries again.
/// - An unreachable remote stops the sync at once: the family stays queued and the
///   app runs local-only until a later sync.
/// - Attempts are bounded; so is every wait.
///
/// An actor, so one family is never synced by two callers at the same time.
public actor FamilySyncService {
    public enum Outcome: Sendable, Equatable {
        /// On the remote; the family as stored (its code may have changed).
        case synced(Family)
        /// Still queued, and why.
        case pending(FamilyRemoteError)
    }

    private let data: FamilyDataService
    private let remote: (any FamilyRemote)?
    private let generator: FamilyCodeGenerator
    private let backoff: FamilyBackoff
    private let sleep: @Sendable (Duration) async -> Void
    private var inFlight: Set<Int64> = []
    /// The waits of the last sync between its attempts, in order: the backoff as it
    /// was lived (seed 001's "exponential backoff", visible to a scenario).
    public private(set) var lastWaits: [Duration] = []

    public init(data: FamilyDataService, remote: (any FamilyRemote)?, generator: FamilyCodeGenerator,
                backoff: FamilyBackoff,
                sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0, clock: .continuous) }) {
        self.data = data
        self.remote = remote
        self.generator = generator
        self.backoff = backoff
        self.sleep = sleep
    }

    /// Syncs one queued family.
    public func sync(_ family: Family) async -> Outcome {
        guard let remote else { return .pending(.notConfigured) }
        guard inFlight.insert(family.id).inserted else { return .pending(.interrupted("already being synced")) }
        defer { inFlight.remove(family.id) }
        let delays = backoff.delays(familyID: family.id)
        lastWaits = []
        var current = family
        var lastProblem = FamilyRemoteError.interrupted("no attempt made")
        for attempt in 0..<backoff.maxAttempts {
            if attempt > 0, lastProblem.isTransient {
                let wait = delays.dropFirst(attempt - 1).first ?? backoff.cap
                lastWaits.append(wait)
                await sleep(wait)
            }
            try? await data.recordAttempt(current)
            do throws(FamilyRemoteError) {
                switch try await remote.register(RemoteFamily(current)) {
                case .created:
                    return await synced(current)
                case .codeTaken:
                    if try await remote.lookup(current.code)?.clientID == current.clientID {
                        // Our own registration, whose answer was lost: it is there, once.
                        return await synced(current)
                    }
                    guard let recoded = await newCode(for: current) else {
                        return .pending(.rejected("no free code for a family whose code was taken"))
                    }
                    current = recoded
                    lastProblem = .rejected("code taken")
                }
            } catch {
                lastProblem = error
                if !error.isTransient { return .pending(error) }
            }
        }
        return .pending(lastProblem)
    }

    /// Syncs the whole queue, oldest first, and stops at the first sign that the
    /// remote is not there. Returns what is still queued and the last problem.
    public func drain() async -> (pending: Int, problem: FamilyRemoteError?) {
        guard let queued = try? await data.pending() else {
            return (data.pendingCount() ?? 0, .interrupted("the queue could not be read"))
        }
        var problem: FamilyRemoteError?
        for family in queued {
            if case let .pending(error) = await sync(family) {
                problem = error
                if case .unreachable = error { break }
                if case .notConfigured = error { break }
            }
        }
        return (data.pendingCount() ?? queued.count, problem)
    }

    private func synced(_ family: Family) async -> Outcome {
        do throws(FamilyDataService.StoreError) {
            try await data.markSynced(family)
            return .synced(family)
        } catch {
            // On the remote, still queued here: the next sync finds it registered (409, same client id).
            return .pending(.interrupted("synced, but the queue could not be updated: \(error.detail)"))
        }
    }

    private func newCode(for family: Family) async -> Family? {
        for _ in 0..<generator.maxAttempts {
            if case let .created(updated)? = try? await data.replaceCode(of: family, with: generator.next()) { return updated }
        }
        return nil
    }
}
