@testable import Chaos
import Foundation
import Testing

/// A guided hunt end to end on the legacy app: schedules 16 on are written from the
/// corpus the first batch made, and the hunt at `-j 2` and one at a time give the same
/// corpus, the same failing schedules and the very same findings — one of them first
/// failed in a schedule the corpus wrote.
@Suite(.serialized) struct GuidedHuntRunTests {
    static let arguments = ["hunt", "--variant", "legacy", "--seed", "1", "--schedules", "40", "--strategy", "guided"]

    @Test func theSameSeedGivesTheSameFindingsAtAnyJobs() throws {
        let parallel = try HuntRunTests.hunt(["-j", "2"], arguments: Self.arguments)
        let serial = try HuntRunTests.hunt(["-j", "1"], arguments: Self.arguments)
        let whole = try #require(parallel.report.hunt)
        let one = try #require(serial.report.hunt)
        #expect(whole.strategy == "guided" && one.strategy == "guided")
        #expect(whole.schedules == 40 && one.schedules == 40)
        #expect((whole.corpus ?? 0) > 0 && whole.corpus == one.corpus, "corpus \(whole.corpus ?? -1) and \(one.corpus ?? -1)")
        #expect(whole.failedSchedules == one.failedSchedules && whole.idle == one.idle && whole.bitten == one.bitten)
        #expect(!whole.findings.isEmpty)
        #expect(HuntRunTests.comparable(one.findings) == HuntRunTests.comparable(whole.findings))
        #expect(whole.findings.contains { $0.schedule >= HuntGuide.batchSize }, "\(whole.findings.map(\.schedule))")
        #expect(whole.firstFailureMs != nil && parallel.stdout.contains("strategy guided, corpus of \(whole.corpus ?? -1) schedules"))
        let schema = try ReportFormatTests.validateJSON(parallel.folder.url.appendingPathComponent("chaos-report.json"))
        #expect(schema.exitCode == 0 && schema.stdout == "valid", "\(schema.stdout)\n\(schema.stderr)")
    }

    /// A shard holds every Nth schedule, not the corpus the whole hunt's schedules make.
    @Test func aShardIsNotGuided() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(Self.arguments + ["--shard", "1/2", "--report-dir", folder.url.path])
        #expect(result.exitCode == 64, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("--strategy guided needs the whole hunt"))
    }
}
