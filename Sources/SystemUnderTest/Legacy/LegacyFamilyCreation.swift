// LEGACY — seed 001's family creation before the fix, kept on purpose (see
// LegacyStore.swift for why this folder exists). The old CodeGenerator re-created
// its generator on every call (so every creation draws the same code), asked the
// remote with a force unwrap of the answer, saved with `try!`, and synced with a
// force unwrap: offline, a silent remote, a reset connection or a code already
// taken ends in EXC_BREAKPOINT (SIGILL here). There is no offline path and no queue,
// and what it creates is logged with the user's family name and code (seed 001's privacy).
import GRDB

struct LegacyFamilyCreation: FamilyCreationFlow {
    let store: AppStore
    let remote: (any FamilyRemote)?
    let seed: UInt64

    func generateCode() async throws(FamilyCreationError) -> FamilyCodeGenerator.Choice {
        var rng = FamilyRandom(seed: seed)
        var code = FamilyCode.random(using: &rng)
        let exists: Bool? = try? await remote!.lookup(code.text) != nil
        if exists! {
            var again = FamilyRandom(seed: seed)
            code = FamilyCode.random(using: &again)
        }
        return FamilyCodeGenerator.Choice(code: code, checkedRemotely: true, remoteProblem: nil)
    }

    func createLocally(name: String, code: FamilyCode) async throws(FamilyCreationError) -> FamilyDataService.Creation {
        let family = try! await store.writer.write { db -> Family in
            let id = (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM family") ?? 0) + 1
            let family = Family(id: id, code: code.text, name: name, clientID: "legacy-\(id)")
            try family.insert(db)
            return family
        }
        // The old code logged what it made, the user's family name and code included.
        AppLog.family.info("Created family \(family.name) with code \(family.code)")
        return .created(family)
    }

    func sync(_ family: Family) async throws(FamilyCreationError) -> FamilySyncService.Outcome {
        let answer = try? await remote!.register(RemoteFamily(family))
        guard answer! == .created else { fatalError("Family code \(family.code) already exists") }
        return .synced(family)
    }

    func syncPending() async -> (pending: Int, problem: FamilyRemoteError?) { (0, nil) }

    func families() async throws(FamilyCreationError) -> [Family] {
        (try? await store.writer.read { try Family.order(Column("id")).fetchAll($0) }) ?? []
    }

    func pendingCount() -> Int { 0 }

    /// The old code checked nothing before it wrote.
    func validateDatabaseState() async throws(FamilyCreationError) {}

    /// The old `fetchFamily(byCode:)`: the remote's answer force-unwrapped (an unknown
    /// code, or no answer at all, traps), saved with `try!`.
    func join(code: String) async throws(FamilyCreationError) -> FamilyJoin {
        let found = try? await remote!.lookup(code)
        let remoteFamily = found!
        let family = try! await store.writer.write { db -> Family in
            let id = (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM family") ?? 0) + 1
            let family = Family(id: id, code: remoteFamily.code, name: remoteFamily.name, clientID: remoteFamily.clientID)
            try family.insert(db)
            return family
        }
        return FamilyJoin(family: family, source: .remote)
    }
}
