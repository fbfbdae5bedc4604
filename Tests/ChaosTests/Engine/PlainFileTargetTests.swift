import Chaos
import Foundation
import Testing

/// A target with no SQLite at all (`Examples/Todos`: a Codable list in one JSON file):
/// storage faults and power cuts reach it through the libc seam, the crash sweep finds
/// what its fragile saves lose, and a fault no seam reaches says why instead of passing.
@Suite(.serialized) struct PlainFileTargetTests {
    static let todos = CheckTests.example("todos")
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Todos/scenarios")

    func chaos(_ arguments: [String], environment: [String: String] = [:]) throws -> (ChaosExecutable.Result, RunReport) {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(arguments + ["--report-dir", reports.url.path, "--target-exec", Self.todos],
                                             environment: environment, timeout: .seconds(120))
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        return (result, report)
    }

    @Test func theCrashSweepFindsTheLostSavesOfTheFragileStoreAndNoneOfTheFixedOne() throws {
        let scenario = Self.scenarios.appendingPathComponent("todos-save.yaml").path
        let (fragile, _) = try chaos(["explore", scenario, "--sweep", "crash", "--variant", "fragile"])
        #expect(fragile.exitCode == 1, "\(fragile.stdout)")
        #expect(fragile.stdout.contains("lost acknowledged writes"), "\(fragile.stdout)")
        let line = try #require(fragile.stdout.split(separator: "\n").first { $0.contains("reproduce: chaos explore") })
        let trial = try #require(line.split(separator: " ").drop { $0 != "--trial" }.dropFirst().first)
        // The minimal reproduction: the first trial that fails, alone, fails the same way.
        let (again, _) = try chaos(["explore", scenario, "--sweep", "crash", "--variant", "fragile", "--trial", String(trial)])
        #expect(again.exitCode == 1 && again.stdout.contains("lost"), "\(again.stdout)")

        let (fixed, _) = try chaos(["explore", scenario, "--sweep", "crash", "--variant", "fixed"])
        #expect(fixed.exitCode == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("0 traps, 0 integrity failures, 0 lost acknowledged writes"), "\(fixed.stdout)")
        let covered = try #require(fixed.stdout.split(separator: "\n").first { $0.hasPrefix("crash points covered:") })
        let numbers = covered.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] >= 20, "every write and sync of five saves: \(covered)")
    }

    @Test func anAppThatRetriesAFailedFsyncIsCaughtAtTheNextPowerCut() throws {
        let scenario = Self.scenarios.appendingPathComponent("todos-fsync-fails.yaml").path
        let (retries, report) = try chaos(["run", scenario, "--variant", "retries-fsync"])
        #expect(retries.exitCode == 1, "\(retries.stdout)")
        let lost = report.cases.first?.expectations.first { $0.label.hasPrefix("preserved") }
        #expect(lost?.passed == false, "\(retries.stdout)")
        let (fixed, fixedReport) = try chaos(["run", scenario, "--variant", "fixed"])
        #expect(fixed.exitCode == 0, "\(fixed.stdout)")
        let fault = fixedReport.cases.first?.faults?.first { $0.kind == "io-error" }
        #expect(fault?.seam == "libc" && fault?.fired == 1, "the failed fsync came from the libc seam")
        let cut = fixedReport.cases.first?.injections.first { $0.kind == "power-loss" }
        #expect(cut?.mechanism == "libc", "the cut of a target without SQLite is the libc seam's: \(cut?.mechanism ?? "none")")
    }

    func scenario(_ faultLines: String) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("todos-disk-full.yaml")
        try """
            name: todos-disk-full
            summary: The disk fills while the user saves.
            system: todos
            steps:
              - launch
              - do: todos.add
              - fault: disk-full
            \(faultLines)
              - do: todos.add
              - clear: disk-full
              - do: todos.list
            expect:
              - no-trap
              - preserved: acknowledged
            """.write(to: file, atomically: true, encoding: .utf8)
        return (folder, file.path)
    }

    @Test func aFaultNoSeamReachesIsInconclusiveAndSaysWhy() throws {
        // The fault VFS, asked for by name, on a target that keeps no SQLite.
        let (folder, vfs) = try scenario("    seam: vfs")
        let (aimedAtVFS, report) = try chaos(["run", vfs])
        #expect(aimedAtVFS.exitCode == 1, "\(aimedAtVFS.stdout)")
        #expect(report.cases.first?.verdict == .inconclusive)
        #expect(report.cases.first?.error?.contains("the fault VFS never saw the app's files") == true, "\(report.cases.first?.error ?? "")")
        #expect(report.cases.first?.error?.contains("use seam: libc") == true)
        // The libc seam, when the controller has none to preload.
        let (plainFolder, plain) = try scenario("    errno: EDQUOT")
        let (withoutSeam, bare) = try chaos(["run", plain], environment: ["CHAOS_LIBC_SEAM": "off"])
        #expect(withoutSeam.exitCode == 1, "\(withoutSeam.stdout)")
        #expect(bare.cases.first?.error?.contains("the libc seam is not in the app's process") == true, "\(bare.cases.first?.error ?? "")")
        // And with it: the quota is full, the save fails, the user is told, nothing is lost.
        let (withSeam, full) = try chaos(["run", plain])
        #expect(withSeam.exitCode == 0, "\(withSeam.stdout)")
        let injections = full.cases.first?.injections ?? []
        #expect(injections.contains { $0.mechanism == "libc" && $0.detail.contains("EDQUOT") }, "\(injections.map(\.detail))")
        _ = (folder, plainFolder)
    }

    @Test func aWrapperThatClearsThePreloadIsNamedAsTheReason() throws {
        // A start-up script that clears LD_PRELOAD before it starts the app: the seam never
        // gets in, the fault reaches nothing, and the case says what kept it out.
        let folder = try TemporaryFolder()
        let wrapper = try folder.write("start-todos.sh", """
            #!/bin/sh
            unset LD_PRELOAD
            exec \(Self.todos) "$@"
            """, executable: true)
        let (scenarioFolder, plain) = try scenario("    errno: ENOSPC")
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["run", plain, "--report-dir", reports.url.path, "--target-exec", wrapper.path])
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        #expect(result.exitCode == 1, "\(result.stdout)")
        #expect(report.cases.first?.verdict == .inconclusive)
        #expect(report.cases.first?.error?.contains("LD_PRELOAD did not reach the target's process") == true, "\(report.cases.first?.error ?? "")")
        _ = scenarioFolder
    }

    @Test func aSweepThatFindsNothingToTryIsInconclusiveNotPassed() throws {
        // Without the libc seam, nothing sees the JSON file's calls: the counting run
        // counts no operation, and "0 of 0 covered, no failure" is no pass.
        let scenario = Self.scenarios.appendingPathComponent("todos-save.yaml").path
        let (bare, report) = try chaos(["explore", scenario, "--sweep", "io", "--variant", "fragile"],
                                       environment: ["CHAOS_LIBC_SEAM": "off"])
        #expect(bare.exitCode == 1, "\(bare.stdout)")
        #expect(bare.stdout.contains("inconclusive — nothing to sweep"), "\(bare.stdout)")
        #expect(report.sweep?.pointsTotal == 0)
        // With it, the same sweep fails each save's write in turn.
        let (seen, swept) = try chaos(["explore", scenario, "--sweep", "io", "--variant", "fragile"])
        #expect(!seen.stdout.contains("nothing to sweep"), "\(seen.stdout)")
        #expect((swept.sweep?.pointsTotal ?? 0) >= 5 && swept.sweep?.pointsCovered == swept.sweep?.pointsTotal, "\(seen.stdout)")
    }
}
