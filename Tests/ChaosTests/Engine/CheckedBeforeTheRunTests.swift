import Chaos
import Foundation
import Testing

/// What a run can know before it starts is checked before it starts: exit 64, a
/// message that names the problem, and nothing run, nothing written.
@Suite struct CheckedBeforeTheRunTests {
    static func run(_ arguments: [String]) throws -> ChaosExecutable.Result {
        try ChaosExecutable.run(arguments)
    }

    @Test func aReportFolderThatCannotTakeTheReportsIsRefusedFirst() throws {
        let work = try TemporaryFolder()
        let file = try work.write("a-file", "x")
        for (folder, said) in [(file.path, "is a file, not a folder"), (file.path + "/below", "is a file"), ("", "--report-dir is empty")] {
            let result = try Self.run(["run", "corrupted-db", "--report-dir", folder])
            #expect(result.exitCode == 64, "\(folder): \(result.stdout)")
            #expect(result.stderr.contains(said), "\(result.stderr)")
            #expect(!result.stdout.contains("corrupted-db "), "nothing ran: \(result.stdout)")
        }
        let theirs = try work.write("junit.xml", "<testsuites name=\"other\"/>")
        let result = try Self.run(["run", "corrupted-db", "--report-dir", work.url.path])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("junit.xml was not written by Chaos"), "\(result.stderr)")
        #expect(try String(contentsOf: theirs, encoding: .utf8) == "<testsuites name=\"other\"/>")
    }

    @Test(arguments: [
        ("synchronous=", "both non-empty"), ("=v", "both non-empty"),
        ("bogus-key=1", "the target has no option 'bogus-key'; it reads: synchronous, backup-every"),
        ("synchronous=sometimes", "must be one of full, normal, off, found 'sometimes'"),
        ("backup-every=0", "must be a whole number from 1 to 1000000"),
    ])
    func aTargetOptionTheTargetDoesNotTakeIsRefused(option: String, said: String) throws {
        let work = try TemporaryFolder()
        let result = try Self.run(["run", "corrupted-db", "--option", option, "--report-dir", work.url.path])
        #expect(result.exitCode == 64, "\(result.stdout)")
        #expect(result.stderr.contains(said), "\(result.stderr)")
    }

    @Test func aScenarioOptionTheTargetDoesNotReadIsRefusedAtItsLine() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("opt.yaml", "name: opt\nsummary: s\nsystem: favorites\noptions:\n  synchronus: off\nsteps:\n  - launch\n")
        let result = try Self.run(["validate", scenario.path])
        #expect(result.exitCode == 64, "validate checks against the built-in app: \(result.stderr)")
        let run = try Self.run(["run", scenario.path, "--report-dir", work.url.path])
        #expect(run.exitCode == 64)
        #expect(run.stderr.contains("opt.yaml:5:3") && run.stderr.contains("did you mean 'synchronous'"), "\(run.stderr)")
    }

    @Test func aSystemTheTargetDoesNotDeclareIsRefusedAtItsLineWithTheClosestOne() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("sys.yaml", "name: sys\nsummary: s\nsystem: favourites\nsteps:\n  - launch\n")
        let result = try Self.run(["validate", scenario.path])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("sys.yaml:3:9") && result.stderr.contains("unknown system 'favourites'")
            && result.stderr.contains("did you mean 'favorites'"), "\(result.stderr)")
    }

    @Test func aTargetExecutableThatCannotBeRunIsBadUsageWhateverTheReason() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("x.yaml", "name: x\nsummary: x\nsystem: app\nsteps:\n  - launch\n")
        let notExecutable = try work.write("plain", "#!/bin/sh\n")
        let noInterpreter = try work.write("no-shebang", "\u{7F}ELF garbage", executable: true)
        for (target, said) in [(work.url.path, "is a folder"), (notExecutable.path, "is not executable"),
                               (work.url.appendingPathComponent("missing").path, "no such file"), (noInterpreter.path, "cannot be run")] {
            let result = try Self.run(["run", scenario.path, "--target-exec", target, "--report-dir", work.url.appendingPathComponent("r").path])
            #expect(result.exitCode == 64, "\(target): \(result.stderr)")
            #expect(result.stderr.contains(said), "\(result.stderr)")
        }
    }

    @Test func aFileFaultWhileTheAppRunsIsRefusedByValidate() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("order.yaml", """
            name: order
            summary: damages the store under a running app
            system: favorites
            steps:
              - launch
              - fault: corrupt-file
                file: store
                how: garbage-header
            """)
        let result = try Self.run(["validate", scenario.path])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("order.yaml:6:") && result.stderr.contains("add '- stop' or '- kill' before it"), "\(result.stderr)")
    }

    /// A file deleted or replaced under the running app is what a cleaner, a restore or
    /// another process does: those two kinds are taken while it runs.
    @Test func aFileDeletedOrReplacedUnderTheRunningAppIsTaken() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("gone.yaml", """
            name: gone
            summary: deletes the store under a running app
            system: favorites
            steps:
              - launch
              - fault: delete-file
                file: store
              - do: favorites.list
            """)
        let result = try Self.run(["validate", scenario.path])
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
    }
}
