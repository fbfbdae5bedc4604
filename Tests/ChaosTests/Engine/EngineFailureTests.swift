import Chaos
import Foundation
import Testing

/// How the engine meets a broken target: one that hangs, one that dies by a signal,
/// one that exits. Each is a deliberately broken worker written as a shell script that
/// speaks just enough of the protocol.
@Suite(.serialized) struct EngineFailureTests {
    /// A worker that says it is ready, then never answers; it also starts a child, so
    /// the test can prove the whole process group was killed.
    static let hangingTarget = """
    #!/bin/bash
    \(ShellTarget.preamble(#"{"files":{"store":"app.sqlite"},"actions":["favorites.list"],"probes":[]}"#))
    sleep 987.654 &
    wait
    """

    static let scenario = """
    name: hangs
    summary: the target never answers
    system: favorites
    timeout: 2s
    steps:
      - launch
      - do: favorites.list
    expect:
      - no-trap
    """

    @Test func aHungWorkerIsKilledAtTheTimeoutWithNothingLeftBehind() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("hanging-target", Self.hangingTarget, executable: true)
        let scenario = try folder.write("hangs.yaml", Self.scenario)
        let scratch = try TemporaryFolder()
        let reports = try TemporaryFolder()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try ChaosExecutable.run(
            ["run", scenario.path, "--target-exec", target.path, "--report-dir", reports.url.path],
            temporaryDirectory: scratch.url, timeout: .seconds(30))
        let elapsed = clock.now - start
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(elapsed < .seconds(15), "killed at the 2 s case timeout, not later (took \(elapsed))")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let only = try #require(report.cases.first)
        #expect(only.verdict == .deviated)
        let noTrap = try #require(only.expectations.first { $0.kind == "no-trap" })
        #expect(!noTrap.passed)
        #expect(noTrap.observed.contains("hung"))
        // No process of the worker's group survives, and no scratch directory remains.
        let survivors = try ChildProcessProbe.processes(matching: "sleep 987.654")
        #expect(survivors.isEmpty, "left running: \(survivors)")
        #expect(scratch.contents.filter { $0.contains("-hangs-") }.isEmpty, "scratch left: \(scratch.contents)")
    }

    @Test(arguments: [("ILL", Int32(4), "SIGILL"), ("SEGV", Int32(11), "SIGSEGV"), ("ABRT", Int32(6), "SIGABRT")])
    func aWorkerKilledByATrapSignalIsATrap(signal: String, number: Int32, name: String) throws {
        let dying = """
        #!/bin/bash
        \(ShellTarget.preamble(#"{"files":{"store":"app.sqlite"},"actions":["favorites.list"],"probes":[]}"#))
        read line
        echo "Fatal error: simulated" >&2
        kill -\(signal) $$
        """
        let folder = try TemporaryFolder()
        let target = try folder.write("dying-target", dying, executable: true)
        let scenario = try folder.write("dies.yaml", """
        name: dies
        summary: the target traps at launch
        system: favorites
        steps:
          - launch
        """)
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", target.path, "--report-dir", reports.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let trap = try #require(report.cases.first?.trap)
        #expect(trap.signal == number)
        #expect(trap.signalName == name)
        #expect(trap.message == "simulated")
    }

    @Test func aWorkerThatExitsIsAnUnexpectedExitNotATrap() throws {
        let exiting = """
        #!/bin/bash
        \(ShellTarget.preamble(#"{"files":{"store":"app.sqlite"},"actions":["favorites.list"],"probes":[]}"#))
        read line
        exit 3
        """
        let folder = try TemporaryFolder()
        let target = try folder.write("exiting-target", exiting, executable: true)
        let scenario = try folder.write("exits.yaml", """
        name: exits
        summary: the target exits at launch
        system: favorites
        steps:
          - launch
        """)
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", target.path, "--report-dir", reports.url.path])
        #expect(result.exitCode == 1)
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let only = try #require(report.cases.first)
        #expect(only.trap == nil)
        #expect(only.expectations.first { $0.kind == "no-trap" }?.observed.contains("exit 3") == true)
    }

    @Test func aTargetThatIsNotAWorkerIsAHarnessError() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("not-a-worker", "#!/bin/bash\necho hello\n", executable: true)
        let scenario = try folder.write("x.yaml", "name: x\nsummary: x\nsystem: favorites\nsteps:\n  - launch\n")
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", target.path, "--report-dir", reports.url.path])
        // Asked what it is before any case runs: a harness error, said plainly, no report.
        #expect(result.exitCode == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("did not start: the worker's first line was not a ready event: hello"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: reports.url.appendingPathComponent("chaos-report.json").path))
    }
}

/// Looks for processes by command line, through /proc.
enum ChildProcessProbe {
    static func processes(matching text: String) throws -> [String] {
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return command.contains(text) ? "\(pid): \(command)" : nil
        }
    }
}

/// Ctrl-C: the run stops, kills the worker, and still writes the report (exit 130).
@Suite struct EngineInterruptTests {
    @Test func ctrlCWritesTheReportAndExits130() throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("worker-started")
        let target = try folder.write("slow-target", """
        #!/bin/bash
        \(ShellTarget.preamble(#"{"files":{"store":"app.sqlite"},"actions":["favorites.list"],"probes":[]}"#))
        touch '\(marker.path)'
        sleep 987.111 &
        wait
        """, executable: true)
        let scenario = try folder.write("slow.yaml", "name: slow\nsummary: s\nsystem: favorites\ntimeout: 60s\nsteps:\n  - launch\n")
        let reports = folder.url.appendingPathComponent("reports")
        let stderrFile = folder.url.appendingPathComponent("stderr")
        let chaos = try ChildProcess(
            executable: ChaosExecutable.path,
            arguments: ["run", scenario.path, "--target-exec", target.path, "--report-dir", reports.path],
            environment: ProcessInfo.processInfo.environment, stderrFile: stderrFile)
        // Wait for the event (the worker is up), with a bound.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: marker.path) && clock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(FileManager.default.fileExists(atPath: marker.path))
        kill(chaos.pid, SIGINT)
        let (termination, killed) = chaos.waitForExit(deadline: clock.now + .seconds(20))
        #expect(!killed, "chaos stops promptly on Ctrl-C")
        #expect(termination == .exited(130))
        let report = try JSONReportWriter.read(from: reports.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first?.verdict == .interrupted)
        #expect(try ChildProcessProbe.processes(matching: "sleep 987.111").isEmpty)
    }
}
