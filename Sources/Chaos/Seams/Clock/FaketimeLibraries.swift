import Foundation
import ChaosTarget

/// The two libraries a clock case preloads into its workers, in this order: the
/// timerfd shim (built from this package's C sources on first use: ``PreloadLibrary``), then
/// libfaketime (the Debian package `libfaketime`). The order matters: the shim's
/// `timerfd_settime` must be found before libfaketime's, or every `Task.sleep` of a
/// Swift worker hangs: libfaketime shifts libdispatch's absolute timerfd deadlines.
///
/// Found at run time, never hard-coded: libfaketime through `dpkg -L libfaketime`,
/// else in a `faketime/` folder of the (multiarch) library directories. Two
/// environment variables stand in for the search, so a test can play a host without
/// libfaketime: `CHAOS_LIBFAKETIME` and `CHAOS_TIMERFD_SHIM` (paths).
struct FaketimeLibraries: Sendable, Equatable {
    let shim: String
    let faketime: String

    static let shimFileName = "libChaosTimerfdShim.so"
    static let faketimeFileName = "libfaketime.so.1"

    /// The LD_PRELOAD value: the shim first.
    var preload: String { "\(shim):\(faketime)" }

    /// Both libraries, or why a clock case cannot run here.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result<FaketimeLibraries, ClockUnavailable> {
        let faketime: String
        if let override = environment["CHAOS_LIBFAKETIME"] {
            guard FileManager.default.fileExists(atPath: override) else {
                return .failure(.noLibfaketime("CHAOS_LIBFAKETIME names \(override), which does not exist"))
            }
            faketime = override
        } else if let found = installedFaketime {
            faketime = found
        } else {
            return .failure(.noLibfaketime("\(faketimeFileName) is neither listed by 'dpkg -L libfaketime' nor in a faketime/ folder of the library directories"))
        }
        let shim: String
        if let chosen = environment["CHAOS_TIMERFD_SHIM"] {
            guard FileManager.default.fileExists(atPath: chosen) else {
                return .failure(.harness("the timerfd shim that keeps timers real under libfaketime, \(chosen) (CHAOS_TIMERFD_SHIM), is missing"))
            }
            shim = chosen
        } else {
            switch PreloadLibrary.timerfdShim.path(environment: environment) {
            case let .success(path): shim = path
            case let .failure(why): return .failure(.harness("the timerfd shim that keeps timers real under libfaketime: \(why)"))
            }
        }
        return .success(FaketimeLibraries(shim: shim, faketime: faketime))
    }

    /// libfaketime as installed on this host, looked up once per process.
    static let installedFaketime: String? = fromPackageManager() ?? fromLibraryDirectories()

    /// `dpkg -L libfaketime`: the package's file list names the library.
    static func fromPackageManager() -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg") else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-dpkg-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
              let dpkg = try? ChildProcess(executable: "/usr/bin/dpkg", arguments: ["-L", "libfaketime"],
                                           environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"],
                                           stderrFile: folder.appendingPathComponent("stderr")) else { return nil }
        dpkg.closeInput()
        var found: String?
        let deadline = ContinuousClock.now + .seconds(10)
        reading: while true {
            switch dpkg.readLine(deadline: deadline) {
            case let .line(path):
                if found == nil, path.hasSuffix("/faketime/" + faketimeFileName),
                   FileManager.default.fileExists(atPath: path) { found = path }
            case .invalidUTF8: continue
            case .endOfFile: break reading
            case .timedOut, .tooLong:
                dpkg.killTree()
                break reading
            }
        }
        _ = dpkg.waitForExit()
        return found
    }

    /// `faketime/libfaketime.so.1` under the library directories and their multiarch
    /// subfolders (`/usr/lib/x86_64-linux-gnu/faketime/`), for installs outside dpkg.
    static func fromLibraryDirectories(roots: [String] = ["/usr/lib", "/usr/lib64", "/usr/local/lib", "/lib", "/lib64"]) -> String? {
        var candidates: [String] = []
        for root in roots {
            candidates.append("\(root)/faketime/\(faketimeFileName)")
            let subfolders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            candidates += subfolders.sorted().map { "\(root)/\($0)/faketime/\(faketimeFileName)" }
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }
}

/// Why the clock cannot be faked here.
enum ClockUnavailable: Error, Equatable, CustomStringConvertible {
    /// The host lacks libfaketime: clock cases are skipped, with this reason.
    case noLibfaketime(String)
    /// The harness cannot do its part (its own shim is missing, the scratch folder is
    /// not writable): an error, not a skip.
    case harness(String)

    var description: String {
        switch self {
        case let .noLibfaketime(reason): "clock faults need libfaketime (apt-get install libfaketime): \(reason)"
        case let .harness(reason): reason
        }
    }
}
