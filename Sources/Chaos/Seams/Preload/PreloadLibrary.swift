import ChaosTarget
import Foundation
import Synchronization

/// The C libraries the controller preloads into workers — the libc seam
/// (`Sources/CLibcSeam`) and the timer shim that keeps timers real under libfaketime
/// (`Sources/CTimerfdShim`) — built from this package's own C sources with the
/// machine's C compiler on first use, and kept in a cache.
///
/// Why not a SwiftPM `.dynamic` product: SwiftPM links every library with the Swift
/// driver, which makes it depend on `libswiftCore.so`. Preloaded, that library brings
/// the Swift runtime into every process: a second runtime beside a statically linked
/// app's own, and the runtime's crash handler into apps that are not Swift at all (a
/// `kill -ILL` of a shell target then exits 0). A preload must depend on libc alone.
///
/// The sources are found where the package was built (`#filePath`), as a checkout of
/// it is on any machine that built `chaos` — a user's `.build/checkouts/…` included.
/// The cache is `CHAOS_CACHE_DIR`, else `$XDG_CACHE_HOME/chaos`, else `~/.cache/chaos`;
/// a library is named by the hash of its sources and compiler, so an edit rebuilds it
/// and parallel controllers agree (each writes its own file and renames it in place).
/// The compiler is `CC`, else the first of `cc`, `gcc`, `clang` on the PATH.
package enum PreloadLibrary: String, Sendable, CaseIterable {
    case libcSeam = "libChaosLibcSeam"
    case timerfdShim = "libChaosTimerfdShim"

    /// Why a preload could not be had, in words that say what to do.
    package struct Unavailable: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// The package's `Sources` folder, as it was when this file was compiled.
    static let sourcesRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The C files compiled into the library, and the folders of their headers.
    var sources: (files: [String], includes: [String]) {
        let root = Self.sourcesRoot.path
        switch self {
        case .libcSeam:
            return (["\(root)/CLibcSeam/chaos_libc.c", "\(root)/CLibcSeam/chaos_libc_powerloss.c", "\(root)/CLibcSeam/chaos_libc_calls.c",
                     "\(root)/CLibcSeam/chaos_libc_stdio.c", "\(root)/CLibcSeam/chaos_libc_watch.c", "\(root)/CPowerCut/chaos_power_cut.c",
                     "\(root)/CSeamCalls/chaos_seam_calls.c"],
                    ["\(root)/CLibcSeam/include", "\(root)/CLibcSeamAPI/include", "\(root)/CPowerCut/include", "\(root)/CSeamCalls/include"])
        case .timerfdShim:
            return (["\(root)/CTimerfdShim/timerfd_shim.c"], ["\(root)/CTimerfdShim/include"])
        }
    }

    /// The library's path: built now if the cache does not hold this version yet.
    package func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, Unavailable> {
        Self.built.withLock { built in
            if let known = built[self] { return known }
            let result = build(environment: environment)
            built[self] = result
            return result
        }
    }

    private static let built = Mutex<[PreloadLibrary: Result<String, Unavailable>]>([:])

    private func build(environment: [String: String]) -> Result<String, Unavailable> {
        let (files, includes) = sources
        var hashed: [UInt8] = []
        for file in files + includes.flatMap(Self.headers(in:)) {
            guard let data = FileManager.default.contents(atPath: file) else {
                return .failure(Unavailable(description: "\(rawValue).so is built from this package's C sources, and \(file) is not there "
                    + "(was chaos moved from the machine that built it?): set \(overrideVariable) to a built copy"))
            }
            hashed += Array(file.utf8) + Array(data)
        }
        guard let compiler = Self.compiler(environment: environment) else {
            return .failure(Unavailable(description: "\(rawValue).so is built with a C compiler on first use, and none was found: "
                + "install gcc (apt-get install gcc) or set CC"))
        }
        hashed += Array(compiler.utf8)
        let folder = Self.cacheFolder(environment: environment)
        let name = "\(rawValue)-\(SHA256.hexDigest(of: hashed).prefix(16)).so"
        let target = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) { return .success(target.path) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(Unavailable(description: "cannot create the cache folder \(folder.path) for \(rawValue).so: \(error.localizedDescription); set CHAOS_CACHE_DIR"))
        }
        // Its own file, renamed into place when whole: a controller beside this one
        // builds the same bytes, and neither ever preloads half a library.
        let scratch = folder.appendingPathComponent(".\(name).\(getpid())-\(UInt32.random(in: 0 ... .max))")
        defer {
            try? FileManager.default.removeItem(at: scratch)
            try? FileManager.default.removeItem(at: scratch.appendingPathExtension("log"))
            try? FileManager.default.removeItem(at: scratch.appendingPathExtension("tmp"))
        }
        let temporary = scratch.appendingPathExtension("tmp")
        try? FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let arguments = ["-shared", "-fPIC", "-O2", "-fvisibility=default"]
            + includes.map { "-I\($0)" } + files + ["-o", scratch.path, "-ldl", "-lpthread"]
        let log = scratch.appendingPathExtension("log")
        guard let child = try? ChildProcess(executable: compiler, arguments: arguments,
                                            environment: ["PATH": environment["PATH"] ?? "/usr/bin:/bin", "LC_ALL": "C",
                                                          "TMPDIR": temporary.path],
                                            stderrFile: log) else {
            return .failure(Unavailable(description: "could not start the C compiler \(compiler) to build \(rawValue).so"))
        }
        child.closeInput()
        let (termination, killed) = child.waitForExit(deadline: .now + .seconds(120))
        guard !killed, termination == .exited(0) else {
            let said = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").prefix(5).joined(separator: "\n") ?? ""
            return .failure(Unavailable(description: "\(compiler) could not build \(rawValue).so (\(killed ? "timed out" : "\(termination)")): \(said)"))
        }
        do {
            try FileManager.default.moveItemReplacing(scratch, to: target)
        } catch {
            return .failure(Unavailable(description: "could not put \(rawValue).so in \(folder.path): \(error.localizedDescription)"))
        }
        pruneOldVersions(in: folder, keeping: name)
        return .success(target.path)
    }

    /// Other versions of this library, a day old or more: left by an edit or an upgrade
    /// (a younger one may still be preloaded by another controller).
    private func pruneOldVersions(in folder: URL, keeping name: String) {
        let dayAgo = Date().addingTimeInterval(-86_400)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where file.hasPrefix(rawValue + "-") && file.hasSuffix(".so") && file != name {
            let path = folder.appendingPathComponent(file).path
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < dayAgo {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// The environment variable that names a built copy instead.
    var overrideVariable: String { self == .libcSeam ? "CHAOS_LIBC_SEAM" : "CHAOS_TIMERFD_SHIM" }

    static func headers(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".h") }.sorted().map { "\(folder)/\($0)" }
    }

    static func compiler(environment: [String: String]) -> String? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let wanted = environment["CC"].map { [$0] } ?? ["cc", "gcc", "clang"]
        for name in wanted {
            if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
            if let found = path.map({ "\($0)/\(name)" }).first(where: FileManager.default.isExecutableFile(atPath:)) { return found }
        }
        return nil
    }

    static func cacheFolder(environment: [String: String]) -> URL {
        if let chosen = environment["CHAOS_CACHE_DIR"], !chosen.isEmpty { return URL(fileURLWithPath: chosen) }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg).appendingPathComponent("chaos") }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/chaos")
    }
}

private extension FileManager {
    /// `rename(2)`: replaces `target` in one step.
    func moveItemReplacing(_ source: URL, to target: URL) throws {
        guard rename(source.path, target.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
    }
}
