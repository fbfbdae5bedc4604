import Chaos
import Foundation
import Testing

/// A loss explained: an app on GRDB's DatabasePool, started as Xcode's templates start
/// it, loses acknowledged writes to a power cut because the pool runs WAL with
/// `synchronous = NORMAL`; the report names that cause, SQLite's documentation of it, and
/// the one-line fix. The careful start-up (FULL after the pool is made) loses nothing,
/// and is told nothing of the kind.
@Suite(.serialized) struct LossCauseTests {
    func powerCut(_ variant: String) throws -> CaseReport? {
        let reports = try TemporaryFolder()
        _ = try ChaosExecutable.run(["check", "--target-exec", CheckTests.example("journal"), "--variant", variant,
                                     "--only", "check-power-loss-on-save", "--report-dir", reports.url.path])
        return try JSONReportWriter.read(from: reports.url.appendingPathComponent(ReportSet.jsonFileName)).cases.first
    }

    @Test func aCommitLostToSynchronousNormalIsExplainedWithItsFix() throws {
        let template = try #require(try powerCut("template"))
        let loss = try #require(template.expectations.first { $0.kind == "no-silent-loss" })
        #expect(!loss.passed)
        #expect(loss.detail?.contains("cause: the store ran with journal_mode=WAL and synchronous=NORMAL at the cut") == true, "\(loss.detail ?? "")")
        #expect(loss.detail?.contains("PRAGMA synchronous = FULL") == true)
        let careful = try #require(try powerCut("careful"))
        #expect(careful.verdict == .passed, "\(careful.expectations.map(\.observed))")
    }
}
