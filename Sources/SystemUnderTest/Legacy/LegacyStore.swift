// LEGACY — the "before" code of seeds 000, 002 and 003, kept on purpose.
//
// This folder is the only place in SystemUnderTest where traps and swallowed errors
// may live. It exists so that every Chaos check can be shown to fail: a scenario that
// passes against this code, where the seed says the old code crashed or lost data,
// is a broken scenario. Do not copy anything from here.
import Foundation
import GRDB

/// The old launch: open the store or die (seed 003: `fatalError("Core Data load error")`).
enum LegacyStore {
    static func launch(_ configuration: StoreConfiguration) -> AppStore {
        do {
            try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
            let pool = try AppStore.openPersistent(configuration, waitsItsTurn: false)  // no busy timeout: its widget never crossed its mind
            return AppStore.legacy(writer: pool, configuration: configuration)
        } catch {
            fatalError("Failed to load store: \(error)")
        }
    }
}
