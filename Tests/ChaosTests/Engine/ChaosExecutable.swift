import Foundation
import Synchronization
import Chaos
import ChaosTarget
import ReferenceTarget

/// Runs the built `chaos` executable as a user would, and captures what it did.
/// The executable sits beside the test bundle in SwiftPM's build folder.
struct ChaosExecutable {
    struct Result: Sendable {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        /// The controller's peak resident memory in KiB (its VmHWM, read while it ran).
        var peakMemoryKB: Int? = nil
    }

    static var path: String { built("chaos") }

    /// A product of this package, beside the test bundle: an example, a test app, a library.
    static func built(_ name: String) -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `chaos ARGUMENTS` (or another `executable`) with TMPDIR set to
    /// `temporaryDirectory` (so scratch directories land where a test can look), bounded by `timeout`.
    static func run(_ arguments: [String], executable: String = path, temporaryDirectory: URL? = nil,
                    environment extra: [String: String] = [:], timeout: Duration = .seconds(120)) throws -> Result {
        let work = try TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        if let temporaryDirectory { environment["TMPDIR"] = temporaryDirectory.path }
        environment.merge(extra) { _, new in new }
        let stderrFile = work.url.appendingPathComponent("stderr")
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment, stderrFile: stderrFile)
        child.closeInput()
        var lines: [String] = []
        var peak: Int?
        let deadline = ContinuousClock.now + timeout
        loop: while true {
            // A high-water mark: a reading after the peak still shows it.
            if let now = ProcessTable.peakMemoryKB(of: child.pid) { peak = max(peak ?? 0, now) }
            switch child.readLine(deadline: min(deadline, .now + .milliseconds(50))) {
            case .timedOut where ContinuousClock.now < deadline: continue
            case let .line(line): lines.append(line)
            case .invalidUTF8: continue
            case .endOfFile: break loop
            case .timedOut, .tooLong:
                child.killTree()
                break loop
            }
        }
        let exitCode: Int32
        switch child.waitForExit() {
        case let .exited(code): exitCode = code
        case let .signaled(signal): exitCode = 128 + signal
        }
        let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        return Result(exitCode: exitCode, stdout: lines.joined(separator: "\n"), stderr: stderr, peakMemoryKB: peak)
    }
}

/// A folder removed when the value goes away — or, for one a suite shares through a
/// static (`forTheWholeRun`), when the test process exits: a static is never released.
final class TemporaryFolder: Sendable {
    let url: URL

    init(forTheWholeRun: Bool = false) throws {
        url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("chaos-test-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if forTheWholeRun { Self.removeAtExit(url) }
    }

    private static let runFolders = Mutex<[URL]>([])

    private static func removeAtExit(_ url: URL) {
        let first = runFolders.withLock { folders in
            folders.append(url)
            return folders.count == 1
        }
        guard first else { return }
        atexit {
            for folder in TemporaryFolder.runFolders.withLock({ $0 }) { TemporaryFolder.remove(folder) }
        }
    }

    deinit {
        Self.remove(url)
    }

    /// Removes `folder`, and the lock files SwiftPM left beside it for a package built in
    /// it (`/tmp/_tmp_chaos-test-1A2B3C4D_.build.lock`: the path, slashes made
    /// underscores), which it never removes.
    private static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        let parent = folder.deletingLastPathComponent()
        let prefix = folder.path.replacingOccurrences(of: "/", with: "_") + "_"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".lock") {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    func write(_ name: String, _ text: String, executable: Bool = false) throws -> URL {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        if executable { _ = chmod(file.path, 0o755) }
        return file
    }

    var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }
}

extension ChaosExecutable {
    /// Runs bundled scenarios on a variant and returns the process result and the
    /// report's cases by scenario name.
    static func runScenarios(_ scenarios: [String], variant: String) throws -> (result: Result, cases: [String: CaseReport]) {
        let folder = try TemporaryFolder()
        let result = try run(["run"] + scenarios + ["--variant", variant, "--report-dir", folder.url.path])
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        return (result, Dictionary(uniqueKeysWithValues: report.cases.map { ($0.scenario, $0) }))
    }
}

/// The first lines of a target written as a shell script, speaking just enough of the
/// worker protocol: the ready line, and — in the one worker Chaos starts to ask what the
/// target declares (its data folder's name holds `-describe-`) — the answer to
/// `describe`, `declaration` being the JSON object, after which it exits.
enum ShellTarget {
    static func preamble(_ declaration: String) -> String {
        """
        echo '{"event":"ready","pid":'$$',"protocol":\(WorkerProtocolVersion.current)}'
        case "$*" in *-describe-*) read -r line; echo '{"declaration":\(declaration),"id":0,"ok":true}'; exit 0 ;; esac
        """
    }
}

extension WorkerCommand {
    /// The built-in app's worker, as `chaos` starts it (`chaos worker`).
    static var reference: WorkerCommand {
        WorkerCommand(executable: ChaosExecutable.path, arguments: ReferenceApp.workerArguments, environment: WorkerCommand.workerEnvironment())
    }
}

extension TargetSelection {
    /// The built-in app, selected as `chaos` selects it, its declaration asked of one worker.
    static func reference(variant: String? = nil) throws -> TargetSelection {
        try select(.reference, name: RunInfo.hostedTarget, targetExec: nil, variant: variant)
    }
}
