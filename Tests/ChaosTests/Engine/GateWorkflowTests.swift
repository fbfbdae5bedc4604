import Chaos
import Foundation
import Testing

/// The nightly gate and the crash-report workflow: reproduce, from-crash, parallel and
/// sharded runs, merge, baseline. Not serialized: each test has folders of its own, and
/// in a row they were the suite's last minutes.
@Suite struct GateWorkflowTests {
    /// One legacy run of the whole catalog, shared by the tests that need one.
    static let legacyRun: (folder: TemporaryFolder, result: ChaosExecutable.Result)? = {
        guard let folder = try? TemporaryFolder(forTheWholeRun: true),
              let result = try? ChaosExecutable.run(["run", "--all", "--variant", "legacy", "-j", "2",
                                                     "--report-dir", folder.url.path]) else { return nil }
        return (folder, result)
    }()

    @Test func reproduceFromAReportGivesTheSameTrapSiteTenTimesInARow() throws {
        let run = try #require(Self.legacyRun)
        let report = run.folder.url.appendingPathComponent("chaos-report.json")
        let original = try #require(JSONReportWriter.read(from: report).cases.first { $0.scenario == "corrupted-db" })
        let site = try #require(original.trap?.site)
        for attempt in 1...10 {
            let again = try TemporaryFolder()
            let result = try ChaosExecutable.run(["reproduce", report.path, "--case", "corrupted-db", "--report-dir", again.url.path])
            #expect(result.exitCode == 1, "attempt \(attempt): \(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("reproduced: same verdict and trap site"), "attempt \(attempt): \(result.stdout)")
            let new = try #require(JSONReportWriter.read(from: again.url.appendingPathComponent("chaos-report.json")).cases.first)
            #expect(new.trap?.site == site)
            #expect(new.seed == original.seed)
        }
    }

    @Test func reproduceKeepsTheScratchDirectoryWhenAsked() throws {
        let run = try #require(Self.legacyRun)
        let report = run.folder.url.appendingPathComponent("chaos-report.json")
        let again = try TemporaryFolder()
        let result = try ChaosExecutable.run(["reproduce", report.path, "--case", "fetch-throws", "--keep", "--report-dir", again.url.path])
        let kept = try #require(result.stdout.split(separator: "\n").first { $0.contains("kept: ") })
        let path = String(kept.split(separator: " ").last ?? "")
        #expect(FileManager.default.fileExists(atPath: path + "/data/app.sqlite"))
        #expect(FileManager.default.fileExists(atPath: path + "/worker-2.stderr") || FileManager.default.fileExists(atPath: path + "/worker-1.stderr"))
        try? FileManager.default.removeItem(atPath: path)
    }

    @Test func aChangedScenarioIsNamedWhenReproducing() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("x.yaml", "name: x\nsummary: s\nsystem: favorites\nsteps:\n  - launch\n")
        _ = try ChaosExecutable.run(["run", file.path, "--report-dir", folder.url.path])
        _ = try folder.write("x.yaml", "name: x\nsummary: changed\nsystem: favorites\nsteps:\n  - launch\n")
        let result = try ChaosExecutable.run(["reproduce", folder.url.appendingPathComponent("chaos-report.json").path,
                                              "--case", "x", "--report-dir", folder.url.appendingPathComponent("again").path])
        #expect(result.stdout.contains("changed since the report was written"), "\(result.stdout)")
    }

    @Test func fromCrashFindsAndRunsTheMatchingScenario() throws {
        let run = try #require(Self.legacyRun)
        let report = try JSONReportWriter.read(from: run.folder.url.appendingPathComponent("chaos-report.json"))
        let trapped = try #require(report.cases.first { $0.scenario == "fetch-throws" }?.trap)
        // A crash log as the runtime prints it: the fatal line and the backtrace.
        let log = "SystemUnderTest/LegacyFavoritesDataSource.swift:14: Fatal error: \(trapped.message ?? "")\n\n"
            + (trapped.backtrace ?? "")
        let folder = try TemporaryFolder()
        let crash = try folder.write("crash.log", log)
        let result = try ChaosExecutable.run(["reproduce", "--from-crash", crash.path, "--report-dir", folder.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("fetch-throws"), "\(result.stdout)")
        #expect(result.stdout.contains("reproduce it"))
    }

    /// An iOS crash report from a user's device: the frame in the app's own code
    /// (`LegacyFavoritesDataSource.swift:14`) finds the scenario that traps there.
    @Test func anIOSCrashReportFindsFetchThrowsFirst() throws {
        let folder = try TemporaryFolder()
        let crash = try folder.write("Favourites.crash", CrashSignatureTests.appleText)
        let result = try ChaosExecutable.run(["reproduce", "--from-crash", crash.path, "--report-dir", folder.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let listed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(": trap ") }
        #expect(listed.first?.hasPrefix("  fetch-throws: trap SIGILL at LegacyFavoritesDataSource.swift:14 — same site") == true,
                "\(result.stdout)")
    }

    @Test func aCrashLogNothingMatchesSaysSoPlainly() throws {
        let folder = try TemporaryFolder()
        let crash = try folder.write("crash.log", "MyApp/Sources/Nowhere.swift:3: Fatal error: something else entirely\n")
        let result = try ChaosExecutable.run(["reproduce", "--from-crash", crash.path, "--budget", "10s", "-j", "2", "--report-dir", folder.url.path],
                                             timeout: .seconds(300))
        // Not reproduced is no finding: 0, as docs/HUNT.md says (1 is for a crash reproduced).
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("No catalog case, and no schedule hunted in 10s, traps at Nowhere.swift:3."), "\(result.stdout)")
    }

    /// The legacy catalog, whose traps and losses make the verdicts worth comparing, run
    /// one case at a time beside the shared run two at a time.
    @Test func parallelRunsGiveTheSameVerdictsAsSerialOnes() throws {
        let run = try #require(Self.legacyRun)
        let one = try TemporaryFolder()
        _ = try ChaosExecutable.run(["run", "--all", "--variant", "legacy", "-j", "1", "--report-dir", one.url.path])
        let serial = try JSONReportWriter.read(from: one.url.appendingPathComponent("chaos-report.json"))
        let parallel = try JSONReportWriter.read(from: run.folder.url.appendingPathComponent("chaos-report.json"))
        #expect(serial.summary.deviated > 0, "the legacy catalog deviates")
        #expect(serial.cases.map { "\($0.scenario) \($0.verdict)" } == parallel.cases.map { "\($0.scenario) \($0.verdict)" })
        #expect(serial.cases.map { $0.expectations.map(\.passed) } == parallel.cases.map { $0.expectations.map(\.passed) })
    }

    @Test func twoShardsMergedEqualTheUnshardedRun() throws {
        let run = try #require(Self.legacyRun)
        let whole = try JSONReportWriter.read(from: run.folder.url.appendingPathComponent("chaos-report.json"))
        let a = try TemporaryFolder()
        let b = try TemporaryFolder()
        let merged = try TemporaryFolder()
        _ = try ChaosExecutable.run(["run", "--all", "--variant", "legacy", "--shard", "1/2", "--report-dir", a.url.path])
        _ = try ChaosExecutable.run(["run", "--all", "--variant", "legacy", "--shard", "2/2", "--report-dir", b.url.path])
        let shardA = try JSONReportWriter.read(from: a.url.appendingPathComponent("chaos-report.json"))
        let shardB = try JSONReportWriter.read(from: b.url.appendingPathComponent("chaos-report.json"))
        #expect(!shardA.cases.isEmpty && !shardB.cases.isEmpty)
        #expect(Set(shardA.cases.map(\.scenario)).isDisjoint(with: shardB.cases.map(\.scenario)))
        let result = try ChaosExecutable.run(["report", "merge", a.url.appendingPathComponent("chaos-report.json").path,
                                              b.url.appendingPathComponent("chaos-report.json").path, "--report-dir", merged.url.path])
        #expect(result.exitCode == 1, "legacy deviates: \(result.stdout)")
        let joined = try JSONReportWriter.read(from: merged.url.appendingPathComponent("chaos-report.json"))
        #expect(joined.cases.map { "\($0.scenario) \($0.verdict) \($0.trap?.site ?? "-")" }
            == whole.cases.map { "\($0.scenario) \($0.verdict) \($0.trap?.site ?? "-")" })
        #expect(joined.summary.deviated == whole.summary.deviated)
        #expect(FileManager.default.fileExists(atPath: merged.url.appendingPathComponent("junit.xml").path))
    }

    @Test func aBaselineMarksFailuresNewOrKnownAndFixes() throws {
        let run = try #require(Self.legacyRun)
        let baseline = run.folder.url.appendingPathComponent("chaos-report.json").path
        let now = try TemporaryFolder()
        let hardened = try ChaosExecutable.run(["run", "corrupted-db", "migrate-from-v1", "--baseline", baseline, "--report-dir", now.url.path])
        #expect(hardened.exitCode == 0)
        let report = try JSONReportWriter.read(from: now.url.appendingPathComponent("chaos-report.json"))
        #expect(report.cases.first { $0.scenario == "corrupted-db" }?.baseline == "fixed")
        #expect(report.cases.first { $0.scenario == "migrate-from-v1" }?.baseline == nil)
        let again = try TemporaryFolder()
        _ = try ChaosExecutable.run(["run", "corrupted-db", "--variant", "legacy", "--baseline", baseline, "--report-dir", again.url.path])
        let known = try JSONReportWriter.read(from: again.url.appendingPathComponent("chaos-report.json"))
        #expect(known.cases.first?.baseline == "known")
        #expect(hardened.stdout.contains("[fixed]"))
    }

    @Test func jsonGoesToStandardOutput() throws {
        let folder = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", "busy-store", "--json", "--report-dir", folder.url.path])
        #expect(result.exitCode == 0)
        let data = Data(result.stdout.utf8)
        let report = try JSONReportWriter.decode(data)
        #expect(report.cases.first?.scenario == "busy-store")
    }
}
