import Foundation
import StorageCatalog

/// Where the reference app's own scenarios live: `catalog/*.yaml` (one scenario a file,
/// each for the reference app), `fixtures/` (files they put in place, such as a user's
/// damaged database) and `seeds.yaml` (what each seed document asks, and the scenarios
/// that show it). Its target declares the catalog (`ChaosTarget.scenarioFolder`), as any target
/// may declare scenarios of its own; the framework reads it only through that.
///
/// The resource bundle is looked up by hand rather than through the generated
/// `Bundle.module`, whose accessor traps when the bundle is missing (a `chaos` binary
/// copied away from its build folder): here a missing bundle is a nil.
public enum ReferenceScenarios {
    /// The folder of the reference app's scenario files.
    public static var catalogDirectory: URL? { resourcesDirectory?.appendingPathComponent("catalog") }
    /// What each seed document asks, and the catalog scenarios that show it.
    public static var seedMap: URL? { resourcesDirectory?.appendingPathComponent("seeds.yaml") }

    /// Found as the storage catalog's is (``StorageCatalog/resources(bundle:holding:)``).
    static let resourcesDirectory = StorageCatalog.resources(bundle: "Chaos_ReferenceScenarios.resources", holding: "catalog")
}
