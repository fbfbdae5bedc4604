import Chaos
import Foundation
import Testing

/// Every trap is named at its site in every build: a target built in release with the
/// Swift runtime linked in statically traps in the standard library (an index out of
/// range, no message in an optimised build), and Chaos still names the target's own
/// line — through the toolchain's `swift-backtrace-static`.
@Suite(.serialized) struct TrapSiteEveryBuildTests {
    static let scenario = """
        name: index-trap
        summary: a word is read past the end of its list
        system: words
        steps:
          - launch
          - do: word.pick
            with: { at: 7 }
        expect:
          - no-trap
        """

    /// The package's root, from this file.
    static var package: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Builds the test target in release, statically linked, in a build folder of its own.
    static func releaseTarget() throws -> String {
        let scratch = package.appendingPathComponent(".build-release-tests")
        let log = try TemporaryFolder()
        let build = try ChildProcess(executable: "/usr/bin/env", arguments: [
            "swift", "build", "--package-path", package.path, "--scratch-path", scratch.path,
            "-c", "release", "--static-swift-stdlib", "--product", "chaos-test-index-trap",
        ], environment: ProcessInfo.processInfo.environment, stderrFile: log.url.appendingPathComponent("stderr"))
        build.closeInput()
        while case .line = build.readLine(deadline: .now + .seconds(900)) {}
        guard case .exited(0) = build.waitForExit() else {
            let stderr = (try? String(contentsOf: log.url.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            throw TrapSiteError("the release build failed: \(stderr.suffix(2_000))")
        }
        return scratch.appendingPathComponent("release/chaos-test-index-trap").path
    }

    struct TrapSiteError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func aReleaseStaticTargetsIndexOutOfRangeIsNamedAtItsLine() throws {
        let target = try Self.releaseTarget()
        let folder = try TemporaryFolder()
        let file = try folder.write("index-trap.yaml", Self.scenario)
        let result = try ChaosExecutable.run(["run", file.path, "--target-exec", target, "--report-dir", folder.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        let trap = try #require(report.cases.first?.trap, "\(result.stdout)")
        #expect(trap.signalName == "SIGILL")
        #expect(trap.site == "IndexTrapTarget.swift:29", "\(trap.backtrace ?? "no backtrace")")

        // Without the static backtracer the runtime cannot say where: Chaos says why.
        let blind = try ChaosExecutable.run(["run", file.path, "--target-exec", target, "--report-dir", folder.url.path],
                                            environment: [Backtracer.pathVariable: "/nonexistent/swift-backtrace-static"])
        #expect(blind.exitCode == 1)
        #expect(blind.stdout.contains("no backtrace: the Swift runtime could not find swift-backtrace"), "\(blind.stdout)")
    }
}
