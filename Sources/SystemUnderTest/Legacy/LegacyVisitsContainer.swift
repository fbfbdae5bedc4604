// LEGACY — seed 003's CoreDataStack before the data-error screen, kept on purpose.
//
// The old container load: any load error is fatal, so the user is thrown back to the
// home screen on every launch, with no way out but deleting the app (and all their
// visits). See LegacyStore.swift for why this folder exists.

/// The old `loadPersistentStores` completion: `fatalError` on a load error.
@MainActor
enum LegacyVisitsContainer {
    static func load(store: AppStore?) -> VisitsHealth {
        let health = VisitsHealth.check(store: store)
        if let problem = health.problem {
            fatalError("Core Data load error: \(health.loadError ?? problem.rawValue)")
        }
        return health
    }
}
