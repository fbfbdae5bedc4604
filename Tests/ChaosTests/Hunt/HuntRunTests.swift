@testable import Chaos
import Foundation
import Testing

/// `chaos hunt` end to end on the legacy app: real schedules, real traps, real shrinking.
/// Schedules 0 to 11 of seed 1 hold three of the legacy code's traps (first at schedules
/// 0 — a prewarm launch on a locked device —, 4 and 8); the whole hunt, the same hunt one at a time, and its two shards merged must give
/// the very same findings, each a file that `chaos run` fails the same way. Random
/// schedules, as shards draw them (a guided hunt's are ``GuidedHuntRunTests``').
@Suite(.serialized) struct HuntRunTests {
    static let arguments = ["hunt", "--variant", "legacy", "--seed", "1", "--schedules", "12", "--strategy", "random"]

    struct Hunt {
        var report: RunReport
        var folder: TemporaryFolder
        var stdout: String
    }

    static func hunt(_ extra: [String], arguments: [String] = arguments) throws -> Hunt {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(arguments + extra + ["--report-dir", folder.url.path], timeout: .seconds(300))
        #expect(result.exitCode == 1, "findings fail the hunt: \(result.stdout.suffix(1500))\n\(result.stderr.suffix(1500))")
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        return Hunt(report: report, folder: folder, stdout: result.stdout)
    }

    /// What must be equal between hunts: not the timings, not where the files went.
    /// The scenario, not the comments above it (they tell how often it failed, a count
    /// a busy machine may move for a failure that depends on timing).
    static func comparable(_ findings: [HuntFinding]) -> [String] {
        findings.map { finding in
            let scenario = finding.yaml.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.hasPrefix("#") }.joined(separator: "\n")
            return "\(finding.failure) | schedule \(finding.schedule) | \(finding.stepsBefore) → \(finding.stepsAfter)\n\(scenario)"
        }
    }

    @Test func findsShrinksWritesAndMergesTheSameFindings() throws {
        let whole = try Self.hunt(["-j", "2"])
        let hunt = try #require(whole.report.hunt)
        #expect(hunt.schedules == 12)
        #expect(hunt.strategy == "random" && hunt.corpus == nil, "today's hunt: every schedule drawn from its index")
        let traps = hunt.findings.filter { $0.failure.hasPrefix("trap at Legacy") }
        #expect(traps.count >= 3, "\(hunt.findings.map(\.failure))")
        #expect(Set(traps.map(\.schedule)).isSuperset(of: [0, 4, 8]), "the schedules a random hunt of seed 1 draws")
        for finding in traps {
            #expect(finding.stepsAfter <= 6, "\(finding.failure): \(finding.stepsAfter) steps")
            #expect(finding.stepsAfter < finding.stepsBefore)
            #expect(finding.reproduced)
            #expect(whole.stdout.contains(finding.reproduce))
            #expect(!finding.cutShort && finding.yaml.contains(FindingFile.minimalMark), "1-minimal, and the file says so")
            #expect(finding.explanation?.contains("The app trapped (SIGILL) at \(finding.failure.dropFirst(8).prefix { $0 != ":" })") == true,
                    "\(finding.explanation ?? "")")
            #expect(whole.stdout.contains(finding.failure), "the title whole")
        }
        #expect(whole.report.cases.count == hunt.findings.count, "each finding is a case of the report")
        let schema = try ReportFormatTests.validateJSON(whole.folder.url.appendingPathComponent("chaos-report.json"))
        #expect(schema.exitCode == 0 && schema.stdout == "valid", "\(schema.stdout)\n\(schema.stderr)")
        let junit = try String(contentsOf: whole.folder.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        for finding in hunt.findings {
            #expect(junit.contains(finding.name), "JUnit lists \(finding.name)")
            #expect(junit.contains("message=\"\(JUnitReportWriter.attribute(finding.explanation ?? "-"))\""), "the explanation is the JUnit message")
        }
        let html = try String(contentsOf: whole.folder.url.appendingPathComponent("chaos-report.html"), encoding: .utf8)
        for finding in hunt.findings { #expect(html.contains(HTMLReportWriter.escape(finding.explanation ?? "-")), "and the HTML's") }

        // The file, as written, is a scenario `chaos run` fails with the same trap site.
        let first = try #require(traps.first)
        let file = URL(fileURLWithPath: first.file)
        #expect(FileManager.default.fileExists(atPath: file.path))
        let run = try ChaosExecutable.run(["run", file.path, "--variant", "legacy", "--report-dir", whole.folder.url.appendingPathComponent("again").path])
        #expect(run.exitCode == 1)
        let again = try JSONReportWriter.read(from: whole.folder.url.appendingPathComponent("again/chaos-report.json"))
        #expect(again.cases.first?.trap?.site.map { first.failure.hasPrefix("trap at \($0): ") } == true)

        // One at a time, and in two shards merged: the same findings.
        let serial = try Self.hunt(["-j", "1"])
        #expect(Self.comparable(serial.report.hunt?.findings ?? []) == Self.comparable(hunt.findings))
        let one = try Self.hunt(["-j", "2", "--shard", "1/2"])
        let two = try Self.hunt(["-j", "2", "--shard", "2/2"])
        let merged = try ReportMerge.merge([one.report, two.report])
        #expect(merged.hunt?.schedules == 12)
        #expect(Self.comparable(merged.hunt?.findings ?? []) == Self.comparable(hunt.findings))
    }

    @Test func aTargetWithoutAWorkloadIsToldWhatToDeclare() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["hunt", "--target-exec", ChaosExecutable.built("chaos-test-index-trap"),
                                              "--schedules", "1", "--report-dir", folder.url.path])
        #expect(result.exitCode == 64, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("declares no workload"))
    }
}
