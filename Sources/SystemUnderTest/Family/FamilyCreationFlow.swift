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
            return try await data.create(name: name, code: code)
        } catch {
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
}
