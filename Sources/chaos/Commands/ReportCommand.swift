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
            var merged: RunReport
            do { merged = try ReportMerge.merge(loaded) } catch {
                throw CommandFailure("chaos report merge: \(error)", .usage)
            }
            if merged.hunt != nil { merged = try writeFindings(of: merged) }
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
            if let hunt = merged.hunt {
                print("hunt: seed \(hunt.seed), \(hunt.schedules) schedules, \(hunt.failedSchedules) failed, \(hunt.findings.count) findings")
                for finding in hunt.findings { print("  \(finding.failure): \(finding.file)") }
            }
            let status = merged.exitStatus()
            if status != .passed { throw ExitCode(status) }
            if !(merged.hunt?.findings.isEmpty ?? true) { throw ExitCode(.failed) }
        }

        /// A merged hunt's findings, written again beside the merged report (each shard
        /// wrote its own into its own folder), the report pointing at them.
        private func writeFindings(of merged: RunReport) throws -> RunReport {
            var merged = merged
            guard var hunt = merged.hunt else { return merged }
            let found = (reportDir.hasSuffix("/") ? reportDir : reportDir + "/") + "found"
            try FileManager.default.createDirectory(atPath: found, withIntermediateDirectories: true)
            for index in hunt.findings.indices {
                let finding = hunt.findings[index]
                let path = "\(found)/\(finding.name).yaml"
                try Data(finding.yaml.utf8).write(to: URL(fileURLWithPath: path))
                let reproduce = finding.reproduce.replacingOccurrences(of: finding.file, with: path)
                hunt.findings[index].file = path
                hunt.findings[index].reproduce = reproduce
                for item in merged.cases.indices where merged.cases[item].scenario == finding.name {
                    merged.cases[item].reproduce = reproduce
                    merged.cases[item].scenarioFile = path
                }
            }
            merged.hunt = hunt
            return merged
        }
    }
}
