import ChaosTarget
import Foundation

/// The libc seam's library, `libChaosLibcSeam.so`, as the controller preloads it into
/// every worker: storage faults and power loss for any file, whatever stack the app
/// keeps its data with (`Sources/CLibcSeam`; the worker's side is ``LibcSeam``).
///
/// Built from the package's C sources on first use (``PreloadLibrary``), or named by
/// `CHAOS_LIBC_SEAM` (a path; `off` preloads nothing). Without it, storage faults on a
/// target with no SQLite end `inconclusive`, saying why.
enum LibcSeamLibrary {
    static let variable = "CHAOS_LIBC_SEAM"

    /// The library, or why there is none (nil when `CHAOS_LIBC_SEAM` says why itself).
    static func locate(environment: [String: String]) -> Result<String, PreloadLibrary.Unavailable>? {
        if let chosen = environment[variable], !chosen.isEmpty {
            return chosen == "off" || !FileManager.default.fileExists(atPath: chosen) ? nil : .success(chosen)
        }
        return PreloadLibrary.libcSeam.path(environment: environment)
    }

    /// `environment` with the seam preloaded first (when found), and the name the
    /// worker should have loaded — or why there was none — so a worker without it can say why.
    static func preloading(_ environment: [String: String]) -> [String: String] {
        var result = environment
        result[LibcSeam.expectedVariable] = nil
        result[LibcSeam.unavailableVariable] = nil
        let library: String
        switch locate(environment: environment) {
        case nil: return result
        case let .failure(why):
            result[LibcSeam.unavailableVariable] = why.description
            return result
        case let .success(path): library = path
        }
        let others = (environment["LD_PRELOAD"] ?? "").split(separator: ":").map(String.init).filter { $0 != library && !$0.isEmpty }
        result["LD_PRELOAD"] = ([library] + others).joined(separator: ":")
        result[LibcSeam.expectedVariable] = library
        return result
    }
}
