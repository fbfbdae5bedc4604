import Foundation

/// How a worker's trap gets its site: the Swift runtime's backtracer, in every build.
///
/// A dynamically linked Swift program finds `swift-backtrace` beside its runtime. A
/// statically linked one (`--static-swift-stdlib`, as `make release` builds) cannot: the
/// runtime says "unable to locate swift-backtrace" and turns backtracing off, and an
/// optimised standard library traps without a message — no site at all. The toolchain
/// ships `swift-backtrace-static` for such programs (`usr/libexec/swift/linux/`); a
/// worker is told where it is through `SWIFT_BACKTRACE=…,swift-backtrace=PATH`.
///
/// Symbolication (reading the debug information for file and line) is most of a trap's
/// cost: about 0.35 s (up to 1 s on a busy machine) for a debug build with GRDB, in the
/// worker. Workers leave it to the controller (``TrapSymbolizer``), which names each
/// distinct frame once; a trap whose backtrace the controller already holds is not
/// unwound again (``KnownTrapSites``); a sweep's trials run without any backtrace and pay
/// for one only for the traps it shows (``Sweeper``).
///
/// Related: the Swift runtime's `docs/Backtracing.rst`.
package enum Backtracer {
    /// The environment variable that names the static backtracer, when it is not beside
    /// the toolchain on PATH.
    package static let pathVariable = "CHAOS_SWIFT_BACKTRACE"

    /// `SWIFT_BACKTRACE` for a worker: never waiting for a debugger, the crashed thread
    /// only, symbolicated; or off, for trials whose traps are only counted.
    package static func setting(symbolicate: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard symbolicate else { return "enable=no" }
        // Raw frames and the images they are in, named by the controller once per frame
        // (``TrapSymbolizer``); the worker names them itself where the tools are missing.
        let naming = TrapSymbolizer.shared.isAvailable ? "symbolicate=off,images=mentioned" : "images=none"
        var setting = "enable=yes,interactive=no,color=no,threads=crashed,registers=none,\(naming),limit=48,top=16"
        if let path = staticBacktracer(environment: environment) { setting += ",swift-backtrace=\(path)" }
        return setting
    }

    /// The toolchain's `swift-backtrace-static`: `$CHAOS_SWIFT_BACKTRACE`, else the one
    /// beside the `swift` on PATH (…/usr/bin/swift → …/usr/libexec/swift/linux/), else
    /// the one beside the Swift runtime this process was linked with. Nil when none is.
    package static func staticBacktracer(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment[pathVariable], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        var toolchains: [URL] = []
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            toolchains.append(swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent())
        }
        // …/usr/lib/swift/linux/libswiftCore.so, when this process is dynamically linked.
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
           let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
           let path = line.split(separator: " ").last {
            toolchains.append(URL(fileURLWithPath: String(path)).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent())
        }
        for usr in toolchains {
            let candidate = usr.appendingPathComponent("libexec/swift/linux/swift-backtrace-static").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Why a trap has no site, when the runtime said it could not make a backtrace.
    package static func missingBacktrace(in stderr: String) -> String? {
        guard stderr.contains("unable to locate swift-backtrace") || stderr.contains("backtracing disabled") else { return nil }
        return "no backtrace: the Swift runtime could not find swift-backtrace (a statically linked program); "
            + "install the Swift toolchain on PATH, or set \(pathVariable)=/path/to/swift-backtrace-static"
    }
}
