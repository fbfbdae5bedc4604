import Chaos
import Foundation
import Testing

/// `memory-kill` on a real worker, both ways: a test app whose import holds 16 KB an item
/// in memory is ended by the system part way. The variant that writes each batch before
/// it tells the user loses nothing it acknowledged; the one that acknowledges each item
/// as it reads it and writes at the end loses them all, and is caught. A bound the app
/// never passes is a fault with no effect, and the case goes on.
@Suite(.serialized) struct MemoryKillTests {
    static let target = URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent()
        .appendingPathComponent("chaos-test-memory-hog").path

    func run(_ variant: String, bound: String) throws -> CaseReport {
        let folder = try TemporaryFolder()
        let scenario = folder.url.appendingPathComponent("import.yaml")
        try """
            name: killed-for-memory-mid-import
            summary: The system ends the app for its memory during an import; every item it said was imported must be there.
            system: storage
            steps:
              - launch
              - fault: memory-kill
                \(bound)
              - do: items.import
                with: {count: 2000}
              - launch
              - do: items.list
            expect:
              - no-trap
              - no-silent-loss
            """.write(to: scenario, atomically: true, encoding: .utf8)
        _ = try ChaosExecutable.run(["run", scenario.path, "--target-exec", Self.target, "--variant", variant,
                                     "--report-dir", folder.url.appendingPathComponent("report").path], timeout: .seconds(60))
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("report/chaos-report.json"))
        return try #require(report.cases.first)
    }

    @Test func anImportEndedForItsMemoryKeepsWhatItWroteAndLosesWhatItOnlyAcknowledged() throws {
        let careful = try run("writes-first", bound: "growth: 8MB")
        let killed = try #require(careful.steps.first { $0.label.hasPrefix("do items.import") })
        #expect(killed.outcome == .powerLost)
        #expect(killed.detail == "the system killed the app for its memory during this step")
        #expect(careful.injections.map(\.kind) == ["memory-kill"])
        #expect(careful.injections.first?.mechanism == "signal")
        #expect(careful.faults?.first?.effect == "the system killed the app for its memory")
        #expect(careful.verdict == .passed, "\(careful.expectations.map(\.observed))")

        let fragile = try run("acknowledges-first", bound: "growth: 8MB")
        #expect(fragile.verdict == .deviated)
        let loss = try #require(fragile.expectations.first { $0.kind == "no-silent-loss" })
        #expect(!loss.passed)
        #expect(loss.detail?.contains("cause: the app synced nothing") != true, "a memory kill keeps every write: no power-loss cause")
    }

    @Test func aBoundNeverPassedHadNoEffectAndTheCaseGoesOn() throws {
        let report = try run("acknowledges-first", bound: "above: 100GB")
        #expect(report.expectations.allSatisfy { $0.passed }, "the import finished and wrote everything: \(report.expectations.map(\.observed))")
        #expect(report.verdict == .inconclusive, "its only fault did nothing")
        #expect(report.steps.allSatisfy { $0.outcome == .ok })
        #expect(report.faults?.first?.hadEffect == false)
        #expect(report.faults?.first?.effect?.hasPrefix("no effect: the app's memory never passed the bound") == true)
    }
}
