/// The steps of creating a family, as the view model's state machine calls them.
/// The hardened app implements them with ``FamilyCreationService``; the legacy app
/// with the seed's "before" code. Every step reports failure by throwing, in
/// words the user can read.
public protocol FamilyCreationFlow: Sendable {
    /// A code free on this device and, when the remote answers, on the remote.
    func generateCode() async throws(FamilyCreationError) -> FamilyCodeGenerator.Choice
    /// Stores the family (and queues it for sync). `.codeTaken` when another
    /// creation took the code in the meantime.
    func createLocally(name: String, code: FamilyCode) async throws(FamilyCreationError) -> FamilyDataService.Creation
    /// Puts the family on the remote, or leaves it queued.
    func sync(_ family: Family) async throws(FamilyCreationError) -> FamilySyncService.Outcome
    /// Syncs every queued family; returns how many are still queued, and why.
    func syncPending() async -> (pending: Int, problem: FamilyRemoteError?)
    /// Every family on this device.
    func families() async throws(FamilyCreationError) -> [Family]
    /// Families waiting for the remote.
    func pendingCount() -> Int
    /// Seed 001's `validateDatabaseState()`: whether the store can take the write now.
    func validateDatabaseState() async throws(FamilyCreationError)
    /// Joins the family that uses `code` (seed 001's `fetchFamilyWithFallback(byCode:)`).
    func join(code: String) async throws(FamilyCreationError) -> FamilyJoin
    /// The waits between the attempts of the last sync, as lived.
    func lastSyncWaits() async -> [Duration]
}

extension FamilyCreationFlow {
    /// The waits between the attempts of the last sync (none: no backoff).
    public func lastSyncWaits() async -> [Duration] { [] }
}

/// A family joined by its code, and where it was found.
public struct FamilyJoin: Sendable, Equatable {
    public enum Source: String, Sendable { case remote, thisDevice = "this-device" }
    public var family: Family
    public var source: Source
}

/// The hardened flow: local and remote uniqueness, a transaction per creation, and a
/// sync that retries with backoff and degrades to local-only.
public struct FamilyCreationService: FamilyCreationFlow {
    let data: FamilyDataService
    let remote: (any FamilyRemote)?
    let generator: FamilyCodeGenerator
    let syncService: FamilySyncService

    public init(data: FamilyDataService, remote: (any FamilyRemote)?, generator: FamilyCodeGenerator, syncService: FamilySyncService) {
        self.data = data
        self.remote = remote
        self.generator = generator
        self.syncService = syncService
    }

    public func generateCode() async throws(FamilyCreationError) -> FamilyCodeGenerator.Choice {
        let data = data
        return try await generator.uniqueCode(isTakenLocally: { try await data.codeExists($0) }, remote: remote)
    }

    public func createLocally(name: String, code: FamilyCode) async throws(FamilyCreationError) -> FamilyDataService.Creation {
        do {
            let creation = try await data.create(name: name, code: code)
            if case let .created(family) = creation {
                // The id only: a family's name and code are the user's (seed 001: no personal data in logs).
                AppLog.family.info("Created a family", metadata: ["family": "\(family.id)"])
            }
            return creation
        } catch {
            AppLog.family.error("A family could not be saved", metadata: ["error": "\(error.detail)"])
            throw .localCreationFailed(underlying: error.detail)
        }
    }

    public func sync(_ family: Family) async throws(FamilyCreationError) -> FamilySyncService.Outcome {
        await syncService.sync(family)
    }

    public func syncPending() async -> (pending: Int, problem: FamilyRemoteError?) {
        await syncService.drain()
    }

    public func families() async throws(FamilyCreationError) -> [Family] {
        do {
            return try await data.families()
        } catch {
            throw .localCreationFailed(underlying: error.detail)
        }
    }

    public func pendingCount() -> Int { data.pendingCount() ?? 0 }

    public func lastSyncWaits() async -> [Duration] { await syncService.lastWaits }

    public func validateDatabaseState() async throws(FamilyCreationError) {
        do {
            try await data.validateDatabaseState()
        } catch {
            AppLog.family.error("The store cannot take a family now", metadata: ["error": "\(error.detail)"])
            throw .databaseUnavailable(underlying: error.detail)
        }
    }

    /// The remote first; when it cannot be asked, or has no such family, this device's
    /// store (a family created here may still wait to be shared). Never traps: an
    /// unknown code and an unreachable remote are errors the user can read.
    public func join(code raw: String) async throws(FamilyCreationError) -> FamilyJoin {
        guard let code = FamilyCode(raw.trimmingCharacters(in: .whitespaces).uppercased()) else { throw .familyNotFound }
        try await validateDatabaseState()
        let local: Family?
        do { local = try await data.family(code: code) } catch { throw .localCreationFailed(underlying: error.detail) }
        guard let remote else {
            if let local { return FamilyJoin(family: local, source: .thisDevice) }
            throw .cannotCheckCode(underlying: "no remote configured")
        }
        let found: RemoteFamily?
        do {
            found = try await remote.lookup(code.text)
        } catch {
            AppLog.family.warning("The remote could not be asked about a code; looking on this device", metadata: ["error": "\(error)"])
            if let local { return FamilyJoin(family: local, source: .thisDevice) }
            throw .cannotCheckCode(underlying: "\(error)")
        }
        guard let found else {
            if let local { return FamilyJoin(family: local, source: .thisDevice) }
            throw .familyNotFound
        }
        do {
            let family = try await data.saveJoined(found)
            AppLog.family.info("Joined a family", metadata: ["family": "\(family.id)"])
            return FamilyJoin(family: family, source: .remote)
        } catch {
            throw .localCreationFailed(underlying: error.detail)
        }
    }
}

/// Every step fails: there is no store at all (the app shows its error screen).
struct UnavailableFamilyFlow: FamilyCreationFlow {
    private var error: FamilyCreationError { .localCreationFailed(underlying: "no store") }
    func generateCode() async throws(FamilyCreationError) -> FamilyCodeGenerator.Choice { throw error }
    func createLocally(name: String, code: FamilyCode) async throws(FamilyCreationError) -> FamilyDataService.Creation { throw error }
    func sync(_ family: Family) async throws(FamilyCreationError) -> FamilySyncService.Outcome { throw error }
    func syncPending() async -> (pending: Int, problem: FamilyRemoteError?) { (0, nil) }
    func families() async throws(FamilyCreationError) -> [Family] { throw error }
    func pendingCount() -> Int { 0 }
    func validateDatabaseState() async throws(FamilyCreationError) { throw error }
    func join(code: String) async throws(FamilyCreationError) -> FamilyJoin { throw error }
}
