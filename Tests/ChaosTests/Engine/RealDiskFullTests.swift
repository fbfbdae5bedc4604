import Chaos
import Foundation
import Testing

/// `disk-full` with `mechanism: tmpfs`: the kernel's own ENOSPC where the host allows
/// a private mount namespace, and an honest skip where it does not.
@Suite struct RealDiskFullTests {
    @Test func aRealFullDiskIsInjectedByTheKernel() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "real-disk-full", "--report-dir", reports.url.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let only = try #require(report.cases.first)
        if only.verdict == .skipped {
            // A host without mount namespaces: the reason is given, never a pass.
            #expect(only.error?.contains("mount namespace") == true)
            return
        }
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(only.verdict == .passed)
        let injection = try #require(only.injections.first { $0.kind == "disk-full" })
        #expect(injection.mechanism == "tmpfs")
        #expect(injection.detail.contains("No space left on device"))
        #expect(try ChildProcessProbe.processes(matching: "sleep 86400").isEmpty, "the namespace holder is gone")
    }

    @Test func aHostThatForbidsMountNamespacesSkipsTheCaseWithTheReason() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "real-disk-full", "--report-dir", reports.url.path],
                                             environment: ["CHAOS_UNSHARE": "/bin/false"])
        #expect(result.exitCode == 0, "a skipped case does not fail the gate")
        #expect(result.stdout.contains("skipped"))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.verdict == .skipped)
        #expect(report.cases.first?.error?.contains("mount namespace") == true)
        #expect(report.summary.skipped == 1)
    }
}
