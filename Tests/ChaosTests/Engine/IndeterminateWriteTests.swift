import Chaos
import Foundation
import Testing

/// Crash trials judged as Jepsen judges them: an app that acknowledges a write once its
/// commit returned, and announces nothing before, loses nothing in SQLite's safe mode
/// wherever the power goes out — a commit that landed just before the cut is
/// indeterminate, not unexpected — and the same app without syncs is still caught.
@Suite(.serialized) struct IndeterminateWriteTests {
    static let workload = """
        name: never-checkpoints-writes
        summary: ten notes saved, each acknowledged after its commit returned
        system: notes
        steps:
          - launch
          - do: workload.write
            repeat: 10
          - do: workload.read
        expect:
          - preserved: acknowledged
        """

    func sweep(synchronous: String) throws -> ChaosExecutable.Result {
        let folder = try TemporaryFolder()
        let scenario = try folder.write("writes.yaml", Self.workload)
        return try ChaosExecutable.run(["explore", scenario.path, "--sweep", "crash", "--target-exec", InconclusiveTests.neverCheckpoints,
                                        "--option", "synchronous=\(synchronous)", "--report-dir", folder.url.path])
    }

    @Test func withFullSyncNoCutLosesAnAcknowledgedWriteOrFindsAnUnexpectedOne() throws {
        let result = try sweep(synchronous: "full")
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("failures: none"), "\(result.stdout)")
        let covered = try #require(result.stdout.split(separator: "\n").first { $0.contains("crash points covered:") })
        let numbers = covered.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] >= 20, "\(covered)")
    }

    @Test func withoutSyncsTheSweepStillFindsLostWrites() throws {
        let result = try sweep(synchronous: "off")
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("lost acknowledged writes"), "\(result.stdout)")
        #expect(result.stdout.contains("lost: note:"), "\(result.stdout)")
    }

    @Test func aRecordNoActionCanExplainIsUnexpectedButAnInterruptedOnesIsNot() {
        let base = AcknowledgedSetCheck(acknowledged: ["note:1"], attempted: [], removed: [], present: ["note:1", "note:2"])
        #expect(base.unexpected == ["note:2"])
        #expect(!base.passed)
        let cut = AcknowledgedSetCheck(acknowledged: ["note:1"], attempted: [], removed: [], present: ["note:1", "note:2"],
                                       unresolvedActions: 1)
        #expect(cut.unexpected.isEmpty)
        #expect(cut.indeterminate == ["note:2"])
        #expect(cut.passed)
        #expect(cut.summary.contains("1 indeterminate"))
        let lost = AcknowledgedSetCheck(acknowledged: ["note:1", "note:2"], attempted: [], removed: [], present: ["note:2"],
                                        unresolvedActions: 1)
        #expect(lost.lost == ["note:1"], "an acknowledged record missing is lost, cut or not")
        #expect(!lost.passed)
    }
}
