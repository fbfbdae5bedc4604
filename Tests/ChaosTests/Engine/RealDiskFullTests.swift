@testable import Chaos
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
        #expect(try ChildProcessProbe.processes(matching: "chaos-tmpfs").isEmpty, "the namespace holder is gone")
    }

    /// The namespace's holder waits on a pipe only its controller holds: a controller
    /// killed with SIGKILL takes it along (it was left running, `sleep 86400`, for a day).
    @Test func theHolderOfATmpfsEndsWithAKilledController() throws {
        let folder = try TemporaryFolder()
        let scenario = try folder.write("full.yaml", """
            name: full-then-wait
            summary: a full tmpfs disk, then a wait long enough to be killed in
            system: favorites
            timeout: 90s
            steps:
              - launch
              - fault: disk-full
                mechanism: tmpfs
              - wait: 60s
            """)
        let controller = try ChildProcess(executable: ChaosExecutable.path, arguments: ["run", scenario.path, "--report-dir", folder.url.path],
                                          environment: ProcessInfo.processInfo.environment, stderrFile: folder.url.appendingPathComponent("stderr"))
        controller.closeInput()
        // The holder is up once the controller says the fault fired (bounded).
        let deadline = ContinuousClock.now + .seconds(30)
        var holders: [ProcessEntry] = []
        while holders.isEmpty, ContinuousClock.now < deadline {
            holders = Self.holders(of: controller.pid)
            if holders.isEmpty { _ = controller.readLine(deadline: .now + .milliseconds(20)) }
        }
        guard !holders.isEmpty else {
            kill(controller.pid, SIGKILL)
            _ = controller.waitForExit()
            let said = (try? String(contentsOf: folder.url.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            #expect(said.contains("mount namespace") || said.isEmpty, "no holder seen: \(said)")
            return  // a host without mount namespaces: nothing to hold
        }
        kill(controller.pid, SIGKILL)
        _ = controller.waitForExit()
        let gone = ContinuousClock.now + .seconds(10)
        while !holders.filter({ kill($0.pid, 0) == 0 && ProcessTable.entry($0.pid)?.isZombie == false }).isEmpty, ContinuousClock.now < gone {
            _ = controller.readLine(deadline: .now + .milliseconds(20))
        }
        #expect(holders.allSatisfy { kill($0.pid, 0) != 0 || ProcessTable.entry($0.pid)?.isZombie == true },
                "left running: \(holders.map(ProcessTable.describe))")
        ScratchFolder.removeAbandonedEverywhere()  // what the killed controller left in the temporary folder
    }

    /// What a controller's cases started inside a private mount namespace (the tmpfs's
    /// holder, the workers that entered it): they carry its case mark, and their mount
    /// namespace is not this process's.
    static func holders(of controller: pid_t) -> [ProcessEntry] {
        func namespace(_ pid: pid_t) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/mnt") }
        let mine = namespace(getpid())
        return ProcessTable.entries().filter { entry in
            guard let mark = ProcessTable.environmentValue(of: entry.pid, named: ProcessLeftovers.markVariable),
                  ScratchFolder.owner(of: mark) == controller, let theirs = namespace(entry.pid) else { return false }
            return theirs != mine
        }
    }
}
