import Foundation

/// Where the storage catalog lives: what `chaos check` runs on any target with a
/// workload, one scenario a file (`check/*.yaml`), and the files its cases put in place
/// of a store (`check/fixtures/`).
///
/// This module holds resources only, and is the one catalog the framework reads: the
/// scenarios of an app (the reference app's among them, `ReferenceScenarios.swift`
/// beside this file) come with its target (`ChaosTarget.scenarioFolder`). The resource
/// bundle is looked up by hand rather than through the generated `Bundle.module`, whose
/// accessor traps when the bundle is missing (a `chaos` binary copied away from its
/// build folder): here a missing bundle is a nil, and the caller says so in words.
public enum StorageCatalog {
    /// The folder of the storage catalog's scenario files.
    public static var checkDirectory: URL? { resourcesDirectory?.appendingPathComponent("check") }

    static let resourcesDirectory = resources(bundle: "Chaos_StorageCatalog.resources", holding: "check")

    /// The resource folder of a module of `Sources/Scenarios` (this one's, and
    /// `ReferenceScenarios`'s): the first of the bundle `bundle` beside the executable,
    /// beside the test bundle, or this source folder itself (a `chaos` run from a
    /// checkout), that holds the folder `holding`.
    public static func resources(bundle: String, holding folder: String) -> URL? {
        var candidates: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(bundle))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundle))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(bundle))
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        return candidates.first { candidate in
            FileManager.default.fileExists(atPath: candidate.appendingPathComponent(folder).path)
        }
    }
}
