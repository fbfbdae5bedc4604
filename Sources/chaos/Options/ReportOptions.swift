import ArgumentParser
import Chaos
import Foundation

/// Where a run's reports go and how its end is told: the JSON on stdout, and whether an
/// inconclusive case fails the gate.
struct ReportOptions: ParsableArguments {
    @Option(help: "Where to write the reports.")
    var reportDir: String = "reports"

    @Flag(help: "Write the JSON report to stdout (the human output goes to stderr).")
    var json = false

    @Flag(help: "Exit 0 though a case was inconclusive (a fault had no effect the app could observe).")
    var allowInconclusive = false

    /// Checks the report folder before anything runs (``ReportSet/prepare(_:)``): a
    /// folder the reports cannot go to is bad usage, said before the run, not after it.
    func prepare() throws {
        try Self.prepare(reportDir)
    }

    static func prepare(_ reportDir: String) throws {
        guard !reportDir.isEmpty else { throw CommandFailure("chaos: --report-dir is empty: give a folder, e.g. reports", .usage) }
        do {
            try ReportSet.prepare(URL(fileURLWithPath: reportDir))
        } catch {
            throw CommandFailure("chaos: --report-dir \(reportDir.isEmpty ? "\"\"" : reportDir): \(error.description)", .usage)
        }
    }

    /// Writes the reports, prints where they are (and the JSON on stdout with --json),
    /// and ends as the report says (Ctrl-C: 130, whatever the cases came to).
    func finish(_ report: RunReport, console: RunConsole) throws {
        let directory = URL(fileURLWithPath: reportDir)
        do {
            let written = try ReportSet.write(report, to: directory)
            console.footer(report, html: written.html.path, json: written.json.path, junit: written.junit.path)
            if let archived = written.archived { console.note("the reports of the run before are now in \(archived.path)") }
        } catch {
            console.footer(report, html: nil, json: nil, junit: nil)
            let why = (error as? ReportSet.Refusal)?.description ?? (error as NSError).localizedDescription
            throw CommandFailure("chaos: could not write the reports to \(directory.path): \(why)", .harnessError)
        }
        if json, let data = try? JSONReportWriter.data(report) {
            FileHandle.standardOutput.write(data)
        }
        if RunInterruption.requested { throw ExitCode(.interrupted) }
        let status = report.exitStatus(allowingInconclusive: allowInconclusive)
        if status != .passed { throw ExitCode(status) }
    }
}

/// How many cases run at once, which share of them, and against which earlier run.
struct SuiteOptions: ParsableArguments {
    @Option(name: [.customShort("j"), .long], help: "Run this many cases at once.")
    var jobs: Int = 1

    @Option(help: "Run shard I of N (a stable partition by case name), e.g. 1/2.")
    var shard: String?

    @Option(help: "A previous run's chaos-report.json: mark each failure new or known, and each fix.")
    var baseline: String?

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("-j must be from 1 to 64") }
        if let shard, Self.parseShard(shard) == nil { throw ValidationError("--shard wants I/N with 1 ≤ I ≤ N, e.g. 1/2; got '\(shard)'") }
    }

    /// `--shard` as (index, count), 1-based.
    var shardIndex: (index: Int, count: Int)? { shard.flatMap(Self.parseShard) }

    static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { return nil }
        return (parts[0], parts[1])
    }

    /// The baseline report, read before anything runs (a bad path is bad usage).
    func previousReport() throws -> RunReport? {
        guard let baseline else { return nil }
        do {
            return try JSONReportWriter.read(from: URL(fileURLWithPath: baseline))
        } catch {
            throw CommandFailure("chaos: --baseline \(baseline): not a chaos report: \(error)", .usage)
        }
    }
}
