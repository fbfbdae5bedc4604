import Chaos
import Foundation
import Testing

/// A full disk that says it has room (`disk-full` with `reported-free`), both ways, on a
/// test app that asks statvfs how much room it has when a save is refused: the variant
/// that takes a refused save with room shown for damage, and starts over, fails the
/// storage catalog's case and passes the plain full disk (statfs then says none is
/// free); the variant that only refuses the save passes both.
@Suite(.serialized) struct DiskWithRoomTests {
    static let target = URL(fileURLWithPath: ChaosExecutable.path).deletingLastPathComponent()
        .appendingPathComponent("chaos-test-space-check").path

    func check(_ variant: String) throws -> [String: CaseReport] {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "--only", "check-disk-full-with-room-on-save", "--only", "check-disk-full-on-save",
                                     "--target-exec", Self.target, "--variant", variant, "--report-dir", reports.url.path],
                                    timeout: .seconds(120))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName))
        return Dictionary(uniqueKeysWithValues: report.cases.map { ($0.scenario, $0) })
    }

    @Test func anAppThatWipesWhenTheDiskShowsRoomIsCaughtAndOneThatRefusesPasses() throws {
        let wipes = try check("wipes")
        let withRoom = wipes["check-disk-full-with-room-on-save"]
        #expect(withRoom?.verdict == .deviated)
        #expect(withRoom?.expectations.contains { $0.kind == "preserved" && !$0.passed } == true,
                "the records saved before the full disk are gone: \(withRoom?.expectations.map(\.observed) ?? [])")
        #expect(withRoom?.faults?.first?.label.contains("1GB reported free") == true)
        #expect(wipes["check-disk-full-on-save"]?.verdict == .passed, "statfs said no room: nothing wiped")

        let keeps = try check("keeps")
        #expect(keeps.values.allSatisfy { $0.verdict == .passed }, "\(keeps.mapValues(\.verdict))")
    }
}
