import ChaosTarget
import Foundation

/// The libc seam's library, `libChaosLibcSeam.so`, as the controller preloads it into
/// every worker: storage faults and power loss for any file, whatever stack the app
/// keeps its data with (`Sources/CLibcSeam`; the worker's side is ``LibcSeam``).
///
/// Found at run time, never hard-coded: `CHAOS_LIBC_SEAM` (a path; `off` preloads
/// nothing), else beside the running executable (`chaos`, or a test bundle in the same
/// build folder), else beside the target executable (a user's package that built the
/// product: `swift build --product ChaosLibcSeam`). Without it, storage faults on a
/// target with no SQLite end `inconclusive`, saying how to build it.
enum LibcSeamLibrary {
    static let fileName = "libChaosLibcSeam.so"
    static let variable = "CHAOS_LIBC_SEAM"

    /// The library, or nil.
    static func locate(environment: [String: String], targetExecutable: String?) -> String? {
        if let chosen = environment[variable], !chosen.isEmpty {
            return chosen == "off" || !FileManager.default.fileExists(atPath: chosen) ? nil : chosen
        }
        var candidates = [FaketimeLibraries.besideExecutable(fileName)]
        if let targetExecutable {
            candidates.append(URL(fileURLWithPath: targetExecutable).deletingLastPathComponent().appendingPathComponent(fileName).path)
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `environment` with the seam preloaded first (when found), and the name the
    /// worker should have loaded, so a worker without it can say why.
    static func preloading(_ environment: [String: String], targetExecutable: String?) -> [String: String] {
        var result = environment
        result[LibcSeam.expectedVariable] = nil
        guard let library = locate(environment: environment, targetExecutable: targetExecutable) else { return result }
        let others = (environment["LD_PRELOAD"] ?? "").split(separator: ":").map(String.init).filter { $0 != library && !$0.isEmpty }
        result["LD_PRELOAD"] = ([library] + others).joined(separator: ":")
        result[LibcSeam.expectedVariable] = library
        return result
    }
}
