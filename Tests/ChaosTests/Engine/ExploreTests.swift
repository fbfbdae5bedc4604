import Chaos
import Foundation
import Testing

/// `chaos explore`: the sweeps find nothing on the hardened app with SQLite's safe
/// settings, and do find the losses and crashes that are there.
@Suite(.serialized) struct ExploreTests {
    @Test func aCrashSweepWithSynchronousFullLosesNothing() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "power-loss-during-save", "--sweep", "crash", "--limit", "30",
                                              "--report-dir", reports.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("30 trials"))
        #expect(result.stdout.contains("0 traps, 0 integrity failures, 0 lost acknowledged writes"))
    }

    @Test(arguments: ["off", "normal"])
    func aCrashSweepWithoutFullSyncFindsLostAcknowledgedWrites(synchronous: String) throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "power-loss-during-save", "--sweep", "crash", "--limit", "30",
                                              "--option", "synchronous=\(synchronous)", "--report-dir", reports.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("lost acknowledged writes"))
        #expect(result.stdout.contains("reproduce: chaos explore power-loss-during-save --sweep crash --trial crash:"))
        // The printed trial reproduces the loss on its own.
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("reproduce: ") })
        let trial = try #require(line.split(separator: " ").drop { $0 != "--trial" }.dropFirst().first)
        let again = try ChaosExecutable.run(["explore", "power-loss-during-save", "--sweep", "crash", "--trial", String(trial),
                                             "--option", "synchronous=\(synchronous)", "--report-dir", reports.url.path])
        #expect(again.exitCode == 1, "\(again.stdout)")
    }

    @Test func anIOSweepOnHardenedCoversOperationsWithoutFailures() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "disk-full-on-save", "--sweep", "io", "--limit", "16",
                                              "--report-dir", reports.url.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("I/O operations covered: 8"))
        #expect(result.stdout.contains("failures: none"))
    }

    @Test func anIOSweepOnLegacyFindsTheTrap() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "io-error-on-fetch", "--sweep", "io", "--variant", "legacy",
                                              "--limit", "4", "--report-dir", reports.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("trap"))
    }
}
