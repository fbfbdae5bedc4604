import Foundation
import ChaosTarget

/// Reads a Swift runtime crash from a worker's stderr: the "Fatal error" message, the
/// backtrace, and the first frame in project code as the trap's `site`.
///
/// The runtime prints `FILE:LINE: Fatal error: MESSAGE` (or `Fatal error: MESSAGE`;
/// `Precondition failed:` for `precondition`, `Assertion failed:` for `assert`, as a
/// dependency's debug build may stop the app) and then, with `SWIFT_BACKTRACE=enable=yes`, a backtrace whose frames read
/// `N 0xADDR SYMBOL in IMAGE at /path/File.swift:LINE:COLUMN`.
package enum TrapParser {
    /// Signals that mean the Swift runtime (or the OS) stopped the program: a trap.
    package static let trapSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]

    /// Builds the trap record for a worker that died by `signal`.
    package static func trap(signal: Int32, stderr raw: String) -> TrapRecord {
        // A worker's raw frames, named here once per distinct frame (``TrapSymbolizer``);
        // a trap at a named instruction has the frames named then (``KnownTrapSites``).
        let stderr = TrapSymbolizer.shared.symbolicate(TrapSymbolizer.shared.expandKnownTrap(raw))
        var record = TrapRecord(
            signal: signal,
            signalName: ChildProcess.signalName(signal),
            message: message(in: stderr),
            site: site(in: stderr),
            backtrace: backtrace(in: stderr) ?? Backtracer.missingBacktrace(in: stderr))
        if record.site == nil { record.siteNote = siteNote(in: stderr) }
        return record
    }

    /// Why a trap names no site of the app's, from what its backtrace shows: the first
    /// frame with a source line, in a dependency's checkout or the toolchain, on a thread
    /// that ran none of the app's code (a connection released on one of NIO's threads);
    /// or that no frame has a source line at all.
    static func siteNote(in stderr: String) -> String? {
        guard backtrace(in: stderr) != nil else { return "no backtrace was written" + (Backtracer.missingBacktrace(in: stderr).map { ": \($0)" } ?? "") }
        guard let first = frames(in: stderr).first else {
            return "no frame of the backtrace has a source line (a build without debug information?)"
        }
        let file = URL(fileURLWithPath: first.path).lastPathComponent
        let owner = first.path.range(of: "/checkouts/").map { range in
            " of the dependency " + (first.path[range.upperBound...].split(separator: "/").first.map(String.init) ?? "?")
        } ?? " of the Swift toolchain"
        return "the thread that trapped ran no code of the app's: its first frame with a source line is \(file):\(first.line)"
            + "\(owner) — work the app handed to a library's own thread (a connection released, a callback), "
            + "started by the step the case names"
    }

    /// How the runtime begins the message of each way Swift code stops the program.
    static let messageMarkers = ["Fatal error: ", "Precondition failed: ", "Assertion failed: "]
    /// How the debug information names the check an optimised build trapped in.
    static let runtimeFailureMarker = "Swift runtime failure: "

    /// The runtime's message line (from its marker on: "Assertion failed: …" says which
    /// check stopped the app); else the check an optimised build trapped in, which prints
    /// no message but names it in the trap's inlined frame
    /// (`0 [inlined] 0x… Swift runtime failure: Unexpectedly found nil while unwrapping an
    /// Optional value in App at /<compiler-generated>:0:0`); else the crash line.
    package static func message(in stderr: String) -> String? {
        for line in stderr.split(separator: "\n", omittingEmptySubsequences: true) {
            if let range = messageMarkers.lazy.compactMap({ line.range(of: $0) }).first {
                let text = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
                return text.hasPrefix("Fatal error: ") ? String(text.dropFirst("Fatal error: ".count)) : text
            }
        }
        for line in stderr.split(separator: "\n") {
            guard let range = line.range(of: runtimeFailureMarker) else { continue }
            var text = line[range.upperBound...]
            if let at = text.range(of: " at ", options: .backwards) { text = text[..<at.lowerBound] }
            if let image = text.range(of: " in ", options: .backwards) { text = text[..<image.lowerBound] }
            if !text.isEmpty { return String(text) }
        }
        for line in stderr.split(separator: "\n") where line.hasPrefix("💣 Program crashed:") || line.hasPrefix("*** Program crashed:") {
            var text = line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("***") { text = String(text.dropLast(3)).trimmingCharacters(in: .whitespaces) }
            return text
        }
        return nil
    }

    /// `File.swift:LINE` of the first backtrace frame in project code; else the file and
    /// line of the first "Fatal error" line in project code. A message line's `#fileID`
    /// does not say whether its module is a dependency; the backtrace does: a file it shows
    /// in a dependency checkout (sqlite-nio's `assert` in a connection's `deinit`, run on
    /// one of NIO's pool threads with no frame of the app) names no site. With no
    /// backtrace (a worker ended mid-backtrace by a second thread's trap: the app's
    /// `fatalError` and that `assert`), the checkouts beside the executable its trap-key
    /// line names say which modules are dependencies (``DependencyModules``).
    package static func site(in stderr: String) -> String? {
        let frames = frames(in: stderr)
        for frame in frames where isProjectCode(frame.path) {
            return "\(URL(fileURLWithPath: frame.path).lastPathComponent):\(frame.line)"
        }
        let foreignFiles = Set(frames.map { URL(fileURLWithPath: $0.path).lastPathComponent })
        let executable = stderr.split(separator: "\n").lazy.compactMap { KnownTrapSites.parse($0) }.first?.executable
        for line in stderr.split(separator: "\n") {
            guard let range = messageMarkers.lazy.compactMap({ line.range(of: ": " + $0) }).first else { continue }
            let location = line[..<range.lowerBound]
            let parts = location.split(separator: ":")
            guard parts.count >= 2, let number = Int(parts[parts.count - 1]) else { continue }
            let fileID = String(parts[parts.count - 2])
            let file = URL(fileURLWithPath: fileID).lastPathComponent
            let module = String(fileID.prefix { $0 != "/" })
            if isProjectFileID(fileID), !foreignFiles.contains(file),
               !(executable.flatMap { DependencyModules.isDependency(module, of: $0) } ?? false) {
                return "\(file):\(number)"
            }
        }
        return nil
    }

    /// The backtrace part of stderr (from the crash banner on), bounded in size.
    package static func backtrace(in stderr: String) -> String? {
        let markers = ["💣 Program crashed", "*** Program crashed", "Thread 0 crashed", "Backtrace"]
        for marker in markers {
            if let range = stderr.range(of: marker) {
                return String(stderr[range.lowerBound...].prefix(64_000))
            }
        }
        return nil
    }

    struct Frame: Equatable {
        var path: String
        var line: Int
    }

    /// Every `at /path/File.swift:LINE[:COLUMN]` in stderr, in order.
    static func frames(in stderr: String) -> [Frame] {
        var frames: [Frame] = []
        for line in stderr.split(separator: "\n") {
            guard let at = line.range(of: " at /", options: .backwards) else { continue }
            let location = line[line.index(after: at.lowerBound)...].dropFirst(3)
            let parts = location.split(separator: ":")
            guard parts.count >= 2, parts[0].hasSuffix(".swift"), let number = Int(parts[1]) else { continue }
            frames.append(Frame(path: String(parts[0]), line: number))
        }
        return frames
    }

    /// A `#fileID` of the "Fatal error" line (`Module/File.swift`) in project code: not
    /// the standard library or another module of the toolchain.
    static func isProjectFileID(_ fileID: String) -> Bool {
        let toolchainModules = ["Swift/", "_Concurrency/", "Foundation/", "FoundationEssentials/", "Dispatch/",
                                "_StringProcessing/", "Synchronization/", "XCTest/", "Testing/"]
        if toolchainModules.contains(where: { fileID.hasPrefix($0) }) { return false }
        return isProjectCode(fileID)
    }

    /// Project code: not the Swift runtime or standard library, not a dependency checkout.
    static func isProjectCode(_ path: String) -> Bool {
        guard path.hasSuffix(".swift") else { return false }
        let foreign = ["/swift/stdlib/", "/swift-corelibs-", "/checkouts/", "/SourcePackages/", "/Runtime/", "<compiler-generated>",
                       "/swift/include/", "/Sources/ChaosTarget/Worker/", "/Sources/ChaosTarget/Target/"]
        if foreign.contains(where: { path.contains($0) }) { return false }
        // Runtime file names that the Swift toolchain compiles in (no directory on some builds).
        let runtimeFiles = ["ContiguousArrayBuffer.swift", "Assert.swift", "AssertCommon.swift", "Optional.swift",
                            "ArrayBuffer.swift", "Array.swift", "Integers.swift", "IntegerTypes.swift"]
        return !runtimeFiles.contains(URL(fileURLWithPath: path).lastPathComponent) || path.contains("/Sources/")
    }
}
