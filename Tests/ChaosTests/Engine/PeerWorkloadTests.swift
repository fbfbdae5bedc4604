import Chaos
import Foundation
import Testing

/// `do: … in: peer` on a real second worker, both ways: the test app's widget imports
/// items into the shared list while the app runs. The variant that reads the list again
/// before it writes keeps them; the one that writes the list it loaded at launch writes
/// over what the widget saved, and is caught. A target without a shared container
/// skips the step's case.
@Suite(.serialized) struct PeerWorkloadTests {
    func run(_ variant: String, target: String = MemoryKillTests.target, action: String = "items.import") throws -> CaseReport {
        let folder = try TemporaryFolder()
        let scenario = folder.url.appendingPathComponent("widget.yaml")
        try """
            name: widget-imports-beside-the-app
            summary: The app's widget imports items into the shared list while the app runs; nothing either saved is lost.
            system: storage
            steps:
              - launch
              - do: \(action)
                in: peer
                with: {count: 3}
              - do: \(action)
                with: {count: 2}
              - stop
              - launch
            expect:
              - no-trap
              - no-silent-loss
            """.write(to: scenario, atomically: true, encoding: .utf8)
        _ = try ChaosExecutable.run(["run", scenario.path, "--target-exec", target, "--variant", variant,
                                     "--report-dir", folder.url.appendingPathComponent("report").path], timeout: .seconds(60))
        let report = try JSONReportWriter.read(from: folder.url.appendingPathComponent("report/chaos-report.json"))
        return try #require(report.cases.first)
    }

    @Test func whatTheWidgetSavedIsKeptByAnAppThatRereadsAndLostByOneThatWritesFromMemory() throws {
        let careful = try run("writes-first")
        #expect(careful.verdict == .passed, "\(careful.expectations.map(\.observed))")
        #expect(careful.steps.contains { $0.label == "do items.import {count: 3} in peer" && $0.outcome == .ok })
        #expect(careful.expectations.contains { $0.observed.contains("all 5 acknowledged records kept") }, "3 by the widget, 2 by the app")

        let fragile = try run("acknowledges-first")
        #expect(fragile.verdict == .deviated)
        let loss = try #require(fragile.expectations.first { $0.kind == "no-silent-loss" })
        #expect(!loss.passed)
        #expect(loss.detail?.contains("lost: item:3") == true, "the widget's third item, written over: \(loss.detail ?? "")")
    }

    @Test func aTargetWithoutASharedContainerSkipsIt() throws {
        let target = URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent().appendingPathComponent("chaos-test-space-check").path
        let report = try run("keeps", target: target, action: "items.add")
        #expect(report.verdict == .skipped)
        #expect(report.error?.contains("declares none (sharedContainer)") == true, "\(report.error ?? "")")
    }
}
