@testable import Chaos
@testable import ChaosTarget
import Foundation
import Testing

/// A hunt's summary in the report: shards merge into the whole hunt, and the JSON,
/// HTML and JUnit reports carry the findings.
@Suite struct HuntReportTests {
    static func finding(_ failure: String, schedule: Int, failing: Int = 1) -> HuntFinding {
        let name = HuntOracle.Failure(kind: failure.hasPrefix("trap") ? .trap : .expectations, core: failure).name
        return HuntFinding(name: name, file: "reports/found/\(name).yaml", failure: failure, schedule: schedule, failingSchedules: failing,
                           stepsBefore: 12, stepsAfter: 3, shrinkRuns: 9, shrinkMs: 800, cutShort: false, reproduced: true,
                           reproduce: "chaos run reports/found/\(name).yaml --seed 5 --variant legacy", yaml: "name: \(name)\n")
    }

    static func summary(_ findings: [HuntFinding], schedules: Int, shard: String?) -> HuntSummary {
        HuntSummary(seed: 3, schedules: schedules, bitten: schedules - 1, idle: 1, failedSchedules: findings.reduce(0) { $0 + $1.failingSchedules },
                    errored: 0, firstError: nil, points: ["store/a"], findings: findings, shard: shard)
    }

    @Test func shardsMergeIntoTheWholeHunt() throws {
        let one = Self.summary([Self.finding("trap at A.swift:1", schedule: 4, failing: 2), Self.finding("no-silent-loss", schedule: 10)],
                               schedules: 10, shard: "1/2")
        let two = Self.summary([Self.finding("trap at A.swift:1", schedule: 1), Self.finding("trap at B.swift:2", schedule: 7)],
                               schedules: 10, shard: "2/2")
        let merged = try #require(try HuntSummary.merged([one, two]))
        #expect(merged.schedules == 20)
        #expect(merged.shard == nil)
        #expect(merged.findings.map(\.failure) == ["trap at A.swift:1", "trap at B.swift:2", "no-silent-loss"])
        #expect(merged.findings.map(\.schedule) == [1, 7, 10], "each failure as its first schedule found it")
        #expect(merged.findings.first?.failingSchedules == 3)
        var other = two
        other.seed = 4
        #expect(throws: ReportMerge.Refusal.self) { try HuntSummary.merged([one, other]) }
    }

    @Test func mergedReportsKeepTheCaseOfEachKeptFinding() throws {
        func report(_ hunt: HuntSummary) -> RunReport {
            let cases = hunt.findings.map { finding in
                var item = ReportSample.deviated
                item.scenario = finding.name
                item.reproduce = finding.reproduce + " #\(finding.schedule)"
                return item
            }
            var run = RunReport(run: ReportSample.report.run, cases: cases)
            run.hunt = hunt
            return run
        }
        let one = report(Self.summary([Self.finding("trap at A.swift:1", schedule: 4)], schedules: 5, shard: "1/2"))
        let two = report(Self.summary([Self.finding("trap at A.swift:1", schedule: 1)], schedules: 5, shard: "2/2"))
        let merged = try ReportMerge.merge([one, two])
        #expect(merged.cases.count == 1)
        #expect(merged.cases.first?.reproduce.hasSuffix("#1") == true)
        #expect(merged.hunt?.findings.count == 1)
        #expect(throws: ReportMerge.Refusal.self) { try ReportMerge.merge([one, RunReport(run: ReportSample.report.run, cases: [])]) }
    }

    @Test func everyReportCarriesTheFindings() throws {
        var report = RunReport(run: ReportSample.report.run, cases: [ReportSample.deviated])
        report.hunt = Self.summary([Self.finding("trap at LegacyStore.swift:18", schedule: 6)], schedules: 40, shard: nil)
        let json = try JSONReportWriter.data(report)
        let back = try JSONDecoder().decode(RunReport.self, from: json)
        #expect(back.hunt == report.hunt)
        let html = HTMLReportWriter.html(report)
        #expect(html.contains("reports/found/trap-legacy-store-18.yaml"))
        #expect(html.contains("40 schedules"))
        #expect(html.contains("shrunk 12 → 3 steps"))
    }
}
