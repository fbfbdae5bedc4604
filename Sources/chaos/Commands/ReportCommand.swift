import ArgumentParser
import Chaos
import Foundation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with reports: merge the reports of shards.",
        subcommands: [Merge.self])

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge several chaos-report.json files (one per shard) into one JSON, HTML and JUnit report.",
            discussion: """
            Example:
              chaos report merge shard1/chaos-report.json shard2/chaos-report.json
            """)

        @Argument(help: "chaos-report.json files.")
        var reports: [String]

        @Option(help: "Where to write the merged reports.")
        var reportDir: String = "reports"

        func validate() throws {
            if reports.isEmpty { throw ValidationError("give at least one chaos-report.json") }
        }

        func run() throws {
            try ReportOptions.prepare(reportDir)
            var loaded: [RunReport] = []
            for path in reports {
                do {
                    loaded.append(try JSONReportWriter.read(from: URL(fileURLWithPath: path)))
                } catch {
                    throw CommandFailure("chaos: \(path): \(error)", .usage)
                }
            }
            let merged: RunReport
            do { merged = try ReportMerge.merge(loaded) } catch {
                throw CommandFailure("chaos report merge: \(error)", .usage)
            }
            let written = try ReportSet.write(merged, to: URL(fileURLWithPath: reportDir))
            let summary = merged.summary
            print("merged \(loaded.count) reports: \(merged.cases.count) cases — \(summary.passed) passed, "
                + "\(summary.deviated) deviated, \(summary.errored) errored, \(summary.skipped) skipped")
            if let sweep = merged.sweep {
                print("sweep: \(sweep.kind) of \(sweep.scenario), \(sweep.trials) trials, "
                    + "\(sweep.pointsCovered) of \(sweep.pointsTotal.map(String.init) ?? "?") covered, "
                    + "\(sweep.failures.values.reduce(0, +)) failures")
            }
            print("report: \(written.html.path)")
            let status = merged.exitStatus()
            if status != .passed { throw ExitCode(status) }
        }
    }
}
