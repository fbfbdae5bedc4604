import Foundation

/// Where the bundled scenarios and their fixtures live.
///
/// This target holds resources only: `catalog/*.yaml` (one scenario a file, for the
/// reference app), `check/*.yaml` (the storage catalog, for any target with a
/// workload) and `fixtures/` (files that scenarios refer to, such as a user's damaged
/// database).
///
/// The resource bundle is looked up by hand rather than through the generated
/// `Bundle.module`, whose accessor traps when the bundle is missing (a `chaos` binary
/// copied away from its build folder): here a missing bundle is a nil, and the caller
/// says so in words.
public enum BundledScenarios {
    /// The folder of bundled scenario files.
    public static var catalogDirectory: URL? { resourcesDirectory?.appendingPathComponent("catalog") }
    /// The folder of the storage catalog `chaos check` runs on any target.
    public static var checkDirectory: URL? { resourcesDirectory?.appendingPathComponent("check") }
    /// What each seed document asks, and the catalog scenarios that show it.
    public static var seedMap: URL? { resourcesDirectory?.appendingPathComponent("seeds.yaml") }
    /// The folder of fixture files that bundled scenarios refer to by relative path.
    public static var fixturesDirectory: URL? { resourcesDirectory?.appendingPathComponent("fixtures") }

    /// The first of: the SwiftPM resource bundle beside the executable, beside the test
    /// bundle, or the source folder itself (a `chaos` run from a checkout).
    static let resourcesDirectory: URL? = {
        let bundleName = "Chaos_Scenarios.resources"
        var candidates: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(bundleName))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(bundleName))
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        return candidates.first { candidate in
            FileManager.default.fileExists(atPath: candidate.appendingPathComponent("catalog").path)
        }
    }()
}
