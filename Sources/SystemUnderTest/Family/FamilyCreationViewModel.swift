/// The create-family screen (seed 001's `CreateFamilyViewModel`): a state machine
///
///     idle → validating → generatingCode → creatingLocally → syncing → completed
///                  ↘            ↘                 ↘                  ↘ failed(error)
///
/// with user-friendly, retryable errors. A remote that cannot be reached does not
/// fail a creation: the family is kept on this device, queued for sync, and the
/// screen says so (``isLocalOnly``, a warning). Only what the user must act on
/// fails: a bad name, a store that cannot save, no free code.
@MainActor
public final class FamilyCreationViewModel {
    public enum State: Sendable, Equatable {
        case idle, validating, generatingCode, creatingLocally, syncing, completed
        case failed(FamilyCreationError)

        /// Kebab-case, for probes and logs.
        public var wireName: String {
            switch self {
            case .idle: "idle"
            case .validating: "validating"
            case .generatingCode: "generating-code"
            case .creatingLocally: "creating-locally"
            case .syncing: "syncing"
            case .completed: "completed"
            case .failed: "failed"
            }
        }

        var isBusy: Bool {
            switch self {
            case .validating, .generatingCode, .creatingLocally, .syncing: true
            default: false
            }
        }
    }

    public private(set) var state: State = .idle {
        didSet { history.append(state) }
    }
    /// Every state entered, in order (what the state-machine tests read).
    public private(set) var history: [State] = []
    /// The family this screen created last.
    public private(set) var family: Family?
    /// Families on this device, after ``loadFamilies()``.
    public private(set) var families: [Family] = []
    /// Some family waits on this device for the remote.
    public private(set) var isLocalOnly = false
    public private(set) var retryCount = 0
    public let maxRetries: Int

    static let localOnlyNotice = "Your family is saved on this device. It will be shared with your family as soon as you're back online."
    /// Creations that lost a race for a code draw again, at most this many times.
    static let codeRaces = 3

    private let flow: any FamilyCreationFlow
    private let limit: FamilyCreationLimit?
    private var lastName: String?

    /// `limit`: the launch's rate limit (nil: none, as the old code had).
    public init(flow: any FamilyCreationFlow, pendingAtLaunch: Int = 0, maxRetries: Int = 3, limit: FamilyCreationLimit? = nil) {
        self.flow = flow
        self.maxRetries = maxRetries
        self.limit = limit
        isLocalOnly = pendingAtLaunch > 0
    }

    /// The family the last join found, and where.
    public private(set) var joined: FamilyJoin?
    /// Why the last join failed, if it did.
    public private(set) var joinError: FamilyCreationError?

    /// "Join a family": the code a relative shared. True when joined.
    @discardableResult
    public func join(code: String) async -> Bool {
        do throws(FamilyCreationError) {
            joined = try await flow.join(code: code)
            joinError = nil
            return true
        } catch {
            joinError = error
            return false
        }
    }

    /// The error shown, if the last creation failed.
    public var error: FamilyCreationError? {
        if case let .failed(error) = state { return error }
        return nil
    }

    public var errorMessage: String? { error?.userMessage }
    public var recoverySuggestion: String? { error?.recoverySuggestion }
    /// The non-blocking notice: the family is kept locally for now.
    public var notice: String? { isLocalOnly ? Self.localOnlyNotice : nil }
    /// Whether the retry button is offered.
    public var canRetry: Bool { (error?.isRetryable ?? false) && lastName != nil && retryCount < maxRetries }

    /// Creates a family called `name`. True when it was created (synced, or kept
    /// locally while the remote is away); a tap while a creation runs is ignored.
    @discardableResult
    public func create(name: String) async -> Bool {
        guard !state.isBusy else { return false }
        lastName = name
        retryCount = 0
        return await run(name: name)
    }

    /// The retry button: the last creation again, at most ``maxRetries`` times in a row.
    @discardableResult
    public func retry() async -> Bool {
        guard let name = lastName, error != nil, !state.isBusy else { return state == .completed }
        guard retryCount < maxRetries else {
            state = .failed(.maxRetriesExceeded)
            return false
        }
        retryCount += 1
        return await run(name: name)
    }

    private func run(name raw: String) async -> Bool {
        state = .validating
        guard let name = FamilyName.validated(raw) else {
            state = .failed(.validationFailed)
            return false
        }
        if let limit, !limit.allowsAnother {
            AppLog.family.notice("A creation was refused by the rate limit", metadata: ["maximum": "\(limit.maximum)"])
            state = .failed(.rateLimited)
            return false
        }
        do throws(FamilyCreationError) {
            try await flow.validateDatabaseState()
            var created: Family?
            var choice: FamilyCodeGenerator.Choice?
            for _ in 0..<Self.codeRaces where created == nil {
                state = .generatingCode
                let drawn = try await flow.generateCode()
                choice = drawn
                state = .creatingLocally
                if case let .created(family) = try await flow.createLocally(name: name, code: drawn.code) { created = family }
            }
            guard let created, let choice else { throw .codeGenerationFailed(underlying: "lost the race for a code \(Self.codeRaces) times") }
            family = created
            limit?.recordCreation()
            state = .syncing
            // A remote that did not answer while the code was chosen is not asked again
            // now: the family waits in the queue, and the user is not kept waiting.
            let outcome: FamilySyncService.Outcome = if let problem = choice.remoteProblem {
                .pending(problem)
            } else {
                try await flow.sync(created)
            }
            switch outcome {
            case let .synced(family):
                self.family = family
                isLocalOnly = false
            case .pending:
                isLocalOnly = true
            }
            state = .completed
            retryCount = 0
            return true
        } catch {
            state = .failed(error)
            return false
        }
    }

    /// Shares every family still waiting (the app does this when the remote is back).
    /// True when none is left waiting; otherwise ``syncError`` says why.
    @discardableResult
    public func syncPending() async -> Bool {
        let (pending, problem) = await flow.syncPending()
        isLocalOnly = pending > 0
        switch problem {
        case _ where pending == 0: syncError = nil
        case let .unreachable(detail)?: syncError = .networkUnavailable(underlying: detail)
        case let problem?: syncError = .syncFailed(underlying: "\(problem)")
        case nil: syncError = .syncFailed(underlying: "\(pending) still queued")
        }
        return pending == 0
    }

    /// Why the last sync left families waiting; nil when it left none.
    public private(set) var syncError: FamilyCreationError?
    /// Why the list could not be read, if it could not.
    public private(set) var listError: FamilyCreationError?

    /// Reads the families on this device (a user-level read). True when it worked.
    @discardableResult
    public func loadFamilies() async -> Bool {
        do throws(FamilyCreationError) {
            families = try await flow.families()
            listError = nil
            return true
        } catch {
            listError = error
            return false
        }
    }
}
