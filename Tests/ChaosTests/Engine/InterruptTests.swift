import Chaos
import Foundation
import Testing

/// Ctrl-C or SIGTERM in the middle of any command: exit 130, the finished cases
/// reported, the rest `interrupted` — never errored, deviated or given a reproduce line.
@Suite struct InterruptTests {
    /// Runs `chaos ARGUMENTS`, sends `signal` once a stdout line contains `cue` (waited
    /// for, with a bound), and returns the exit code and everything printed.
    static func interrupt(_ arguments: [String], at cue: String, with signal: Int32, environment extra: [String: String] = [:],
                          marker: URL? = nil) throws -> (code: Int32, stdout: String, stderr: String) {
        let work = try TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        let stderrFile = work.url.appendingPathComponent("stderr")
        let chaos = try ChildProcess(executable: ChaosExecutable.path, arguments: arguments, environment: environment, stderrFile: stderrFile)
        chaos.closeInput()
        var lines: [String] = []
        var sent = false
        let deadline = ContinuousClock.now + .seconds(120)
        reading: while true {
            if !sent, let marker, FileManager.default.fileExists(atPath: marker.path) {
                kill(chaos.pid, signal)
                sent = true
            }
            switch chaos.readLine(deadline: min(deadline, .now + .milliseconds(50))) {
            case let .line(line):
                lines.append(line)
                if !sent, marker == nil, line.contains(cue) {
                    kill(chaos.pid, signal)
                    sent = true
                }
            case .endOfFile: break reading
            case .timedOut where ContinuousClock.now < deadline: continue
            default:
                chaos.killTree()
                break reading
            }
        }
        let code: Int32 = switch chaos.waitForExit() {
        case let .exited(value): value
        case let .signaled(number): 128 + number
        }
        #expect(sent, "the cue '\(cue)' never came: \(lines.joined(separator: "\n"))")
        return (code, lines.joined(separator: "\n"), (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedCheckExits130WithTheRestInterrupted(signal: Int32) throws {
        let reports = try TemporaryFolder()
        let (code, stdout, _) = try Self.interrupt(["check", "--report-dir", reports.url.path], at: "check-io-error-at-launch-lock",
                                                   with: signal)
        #expect(code == 130, "\(stdout)")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        #expect(report.cases.count == 38, "every case of the catalog is in the report")
        #expect(report.cases.first { $0.scenario == "check-io-error-at-launch-lock" }?.verdict == .passed)
        #expect(report.summary.interrupted > 0)
        #expect(report.summary.errored == 0 && report.summary.deviated == 0, "\(report.summary)")
        #expect(report.cases.last?.verdict == .interrupted, "the sweeps never started")
        #expect(!stdout.contains("reproduce:"), "\(stdout)")
    }

    @Test func anInterruptedSweepExits130AndCountsNoFailure() throws {
        let reports = try TemporaryFolder()
        let (code, stdout, _) = try Self.interrupt(
            ["explore", "power-loss-during-save", "--sweep", "crash", "-j", "2", "--report-dir", reports.url.path],
            at: "trials 25", with: SIGTERM)
        #expect(code == 130, "\(stdout)")
        #expect(stdout.contains("interrupted after"), "\(stdout)")
        #expect(stdout.contains("failures: none"), "\(stdout)")
        #expect(!stdout.contains("reproduce:"), "\(stdout)")
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        #expect(report.sweep?.failures.isEmpty == true, "\(report.sweep?.failures ?? [:])")
    }

    /// A case whose worker is starting when Ctrl-C comes is interrupted, not "not ready
    /// before the deadline".
    @Test func aCaseInterruptedWhileItsWorkerStartsIsInterruptedNotErrored() throws {
        let work = try TemporaryFolder()
        let marker = work.url.appendingPathComponent("starting")
        let scenario = try work.write("slow.yaml", "name: slow\nsummary: s\nsystem: app\ntimeout: 60s\nsteps:\n  - launch\n")
        let reports = work.url.appendingPathComponent("reports")
        let sleep = "987.\(UInt32.random(in: 100_000...999_999))"
        let (code, stdout, stderr) = try Self.interrupt(
            ["run", scenario.path, "--target-exec", MisbehavingTargetTests.target("slow-to-ready"), "--report-dir", reports.path],
            at: "", with: SIGINT, environment: ["CHAOS_TEST_MARKER": marker.path, "CHAOS_TEST_SLEEP": sleep], marker: marker)
        #expect(code == 130, "\(stdout)\n\(stderr)")
        let report = try JSONReportWriter.read(from: reports.appendingPathComponent(ReportSet.jsonFileName))
        #expect(report.cases.first?.verdict == .interrupted, "\(report.cases.first?.error ?? "")")
        #expect(try ChildProcessProbe.processes(matching: "sleep \(sleep)").isEmpty)
    }
}
