@testable import Chaos
import Foundation
import Synchronization
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
        // The report says what the console says of the trials judged from images.
        let report = try JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json"))
        let images = try #require(report.sweep?.fromImages)
        #expect(result.stdout.contains("from images: \(images.trials) trials judged from an image of their cut (\(images.launches) launches"),
                "\(result.stdout)")
        #expect(images.trials == 30 && images.launches > 0 && images.launches <= 30)
        #expect(report.summary.durationMs > 0, "the sweep's wall time, though no trial failed")
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

    /// A trap is a finding, not the end of the sweep: every operation is tried, and the
    /// traps are listed by site (named without symbolicating every trial).
    @Test func anIOSweepOnLegacyCoversEveryOperationAndListsTheTraps() throws {
        let reports = try TemporaryFolder()
        let result = try ChaosExecutable.run(["explore", "fetch-throws", "--sweep", "io", "--variant", "legacy",
                                              "--report-dir", reports.url.path])
        #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
        let covered = try #require(result.stdout.split(separator: "\n").first { $0.contains("I/O operations covered:") })
        let numbers = covered.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 50, "\(covered)")
        #expect(result.stdout.contains("trap at LegacyStore.swift:18 in "), "\(result.stdout)")
        #expect(result.stdout.contains("trap at LegacyFavoritesDataSource.swift:14 in "), "\(result.stdout)")
        #expect(!result.stdout.contains("lost acknowledged writes"), "a trap leaves no data to judge: it is the finding")
    }

    /// Trials side by side judge the same: the same failures, the same first failure
    /// (the minimal reproduction), the same coverage, whatever `-j` says.
    @Test func aParallelSweepHasTheOutcomeOfASerialOne() throws {
        let reports = try TemporaryFolder()
        func sweep(_ arguments: [String], jobs: Int) throws -> (Int32, [String]) {
            let result = try ChaosExecutable.run(["explore"] + arguments + ["-j", String(jobs), "--report-dir", reports.url.path])
            let kept = result.stdout.split(separator: "\n").map(String.init).filter { line in
                ["covered:", "failures:", "first failure:", "reproduce:"].contains { line.contains($0) }
            }
            return (result.exitCode, kept)
        }
        let crash = ["power-loss-during-save", "--sweep", "crash", "--limit", "24", "--option", "synchronous=off"]
        let (serialExit, serial) = try sweep(crash, jobs: 1)
        let (parallelExit, parallel) = try sweep(crash, jobs: 2)
        #expect(serialExit == 1)
        #expect(parallelExit == serialExit)
        #expect(serial.count >= 4, "\(serial)")
        #expect(parallel == serial)
        // An I/O sweep stops at the first operation past the workload: trials run ahead
        // of it in parallel are dropped, and the coverage is the same.
        let io = ["disk-full-on-save", "--sweep", "io", "--limit", "16"]
        let (ioSerialExit, ioSerial) = try sweep(io, jobs: 1)
        let (ioParallelExit, ioParallel) = try sweep(io, jobs: 2)
        #expect(ioSerialExit == 0 && ioParallelExit == 0)
        #expect(ioParallel == ioSerial)
        #expect(ioParallel.contains { $0.hasPrefix("I/O operations covered: 8") }, "\(ioParallel)")
    }
}

/// A power loss that fires while the app stops (its backup at stop is the first
/// launch's last write) does not cancel the relaunch that was stopping it.
@Suite struct PowerLossWhileStoppingTests {
    @Test func theRelaunchGoesOnWhenThePowerIsBack() throws {
        let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
        let sweeper = Sweeper(scenario: try ScenarioLoader.resolve("power-loss-during-save", in: .reference), options: options,
                              kind: .crash, limit: 1, seeds: 1)
        let counting = sweeper.runTrial(.powerLoss(.afterWrites(1_000_000_000), mode: .keep, seed: 0))
        let writes = try #require(counting.io?.writes)
        let trial = sweeper.runTrial(.powerLoss(.afterWrites(writes), mode: .drop, seed: 1))
        let (report, fired) = (trial.report, trial.fired)
        #expect(fired)
        #expect(report.verdict == .passed, "\(report.expectations.filter { !$0.passed }.map(\.observed))")
        let relaunch = try #require(report.steps.first { $0.index == 4 })
        #expect(relaunch.outcome == .ok)
        #expect(relaunch.detail?.hasPrefix("the power went out while the app was stopping; then mode ") == true,
                "\(relaunch.detail ?? "no detail")")
        #expect(report.steps.last?.label == "do favorites.list")
        #expect(report.steps.last?.outcome == .ok)
    }
}

/// Sweeps in shards, as a CI matrix runs them: merged, they are one whole sweep.
@Suite struct ShardedSweepTests {
    @Test func theMergedShardsOfASweepAreTheWholeSweep() throws {
        func sweep(_ extra: [String]) throws -> RunReport {
            let folder = try TemporaryFolder()
            let result = try ChaosExecutable.run(["explore", "fetch-throws", "--sweep", "io", "--variant", "legacy",
                                                  "--report-dir", folder.url.path] + extra)
            #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
            return try JSONReportWriter.read(from: folder.url.appendingPathComponent("chaos-report.json"))
        }
        let whole = try sweep([])
        let shards = [try sweep(["--shard", "1/2"]), try sweep(["--shard", "2/2"])]
        #expect(shards.map { $0.sweep?.shard } == ["1/2", "2/2"])
        #expect(shards.allSatisfy { ($0.sweep?.pointsTotal ?? 0) < (whole.sweep?.pointsTotal ?? 0) }, "each shard a share")

        let folder = try TemporaryFolder()
        let paths = try shards.enumerated().map { index, report in
            try ReportSet.write(report, to: folder.url.appendingPathComponent("shard-\(index + 1)")).json.path
        }
        let merge = try ChaosExecutable.run(["report", "merge"] + paths + ["--report-dir", folder.url.appendingPathComponent("merged").path])
        #expect(merge.exitCode == 1, "\(merge.stdout)\n\(merge.stderr)")
        let merged = try JSONReportWriter.read(from: folder.url.appendingPathComponent("merged/chaos-report.json"))
        var expected = whole.sweep
        expected?.shard = nil
        #expect(merged.sweep == expected, "coverage and failures add up to the whole sweep")
        #expect(Set(merged.cases.map(\.reproduce)) == Set(whole.cases.map(\.reproduce)), "the same failed trials")
        #expect(Set(merged.cases.compactMap { $0.trap?.site }) == Set(whole.cases.compactMap { $0.trap?.site }))
        #expect(merge.stdout.contains("sweep: io of fetch-throws"))
    }
}

/// Workers forked by a warmed-up worker (a fork server) are the same workers: a sweep
/// gives the same verdicts, trial for trial, the same failures and coverage.
@Suite struct ForkServerSweepTests {
    @Test func forkedWorkersGiveTheVerdictsOfSpawnedOnesTrialForTrial() throws {
        // synchronous=off, so that some trials lose writes.
        let (a, b) = try crashSweepTwoWays(synchronous: "off", limit: 60) { $0.run(forkServers: false, remotePool: true, images: true) }
        expectTheSameOutcome(a, b, trials: 60)
        #expect(!a.failures.isEmpty, "\(a.failures)")
    }

    /// Spawns from several threads at once on one server: each child is the one its
    /// process thinks it is (its ready line names the pid the server gave back).
    @Test func concurrentForksOnOneServerDoNotCrossTheirPids() throws {
        let folder = try TemporaryFolder()
        let server = try ForkServer(command: WorkerCommand.reference,
                                    log: folder.url.appendingPathComponent("server.stderr"))
        defer { server.shutDown() }
        let data = folder.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mismatches = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            guard let child = try? ChildProcess(forkedBy: server, arguments: ["--data", data.path, "--variant", "hardened", "--seed", "1"],
                                                stderrFile: folder.url.appendingPathComponent("worker-\(index).stderr"), deadline: .now + .seconds(30)),
                  case let .line(ready) = child.readLine(deadline: .now + .seconds(30)) else {
                mismatches.withLock { $0.append("spawn \(index) failed") }
                return
            }
            if !ready.contains(#""pid":\#(child.pid)"#) { mismatches.withLock { $0.append("\(child.pid): \(ready)") } }
            child.killTree()
            _ = child.waitForExit()
        }
        #expect(mismatches.withLock { $0 }.isEmpty)
    }

    @Test func aForkedWorkerEndsAsAWorkerDoes() throws {
        let folder = try TemporaryFolder()
        let command = WorkerCommand.reference
        let server = try ForkServer(command: command, log: folder.url.appendingPathComponent("server.stderr"))
        defer { server.shutDown() }
        let data = folder.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let child = try ChildProcess(forkedBy: server, arguments: ["--data", data.path, "--variant", "hardened", "--seed", "1"],
                                     stderrFile: folder.url.appendingPathComponent("worker.stderr"), deadline: .now + .seconds(30))
        guard case let .line(ready) = child.readLine(deadline: .now + .seconds(30)) else {
            Issue.record("no ready line")
            return
        }
        #expect(ready.contains(#""event":"ready""#))
        #expect(ready.contains(#""pid":\#(child.pid)"#), "the forked worker reports its own pid")
        child.killTree()
        #expect(child.waitForExit() == .signaled(SIGKILL), "the server reaps it and says how it ended")
    }
}

/// A sweep's trial that hangs is ended once it has failed anyway: a bound on one step
/// learnt from the counting run (ten times its slowest step, at least 6 s) and past the
/// bound every trial is held to answering within.
@Suite struct SweepStepBoundTests {
    static func counting(slowestMs: Int) -> CaseReport {
        var report = ReportSample.deviated
        report.steps = [StepRecord(index: 1, label: "launch", startMs: 0, durationMs: slowestMs / 2, outcome: .ok),
                        StepRecord(index: 2, label: "do favorites.add", startMs: 10, durationMs: slowestMs, outcome: .ok)]
        return report
    }

    @Test func theBoundIsTenTimesTheSlowestStepAndNeverBelowWhatTheOracleAllows() throws {
        let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
        let sweeper = Sweeper(scenario: try ScenarioLoader.resolve("power-loss-during-save", in: .reference), options: options,
                              kind: .crash, limit: 1, seeds: 1)
        #expect(sweeper.plan.stepBound == nil, "one trial alone (--trial) runs at the case's timeout")
        #expect(sweeper.bounded(by: Self.counting(slowestMs: 40)).plan.stepBound == StepBound(launch: .seconds(6), action: .seconds(6)))
        #expect(sweeper.bounded(by: Self.counting(slowestMs: 900)).plan.stepBound == StepBound(launch: .seconds(9), action: .seconds(9)))
        var slow = sweeper
        slow.scenario.expectations = [ScenarioExpectation(kind: .recoveredWithin(.seconds(30)), location: slow.scenario.location)]
        #expect(slow.bounded(by: Self.counting(slowestMs: 40)).plan.stepBound == StepBound(launch: .seconds(31), action: .seconds(31)),
                "a trial held to answering within 30 s is not ended before")
    }
}

/// Crash trials from images of their cuts (``CrashImages``) judge as trials run whole:
/// the same verdict for every trial, the same failures and coverage, where the image
/// path passes what it can and leaves the rest to whole runs.
@Suite struct CrashImageSweepTests {
    /// `corrupted-db` garbles the store between its runs: a whole trial garbles the disk its
    /// cut left, a trial from its image the image (and where the cut left the store too
    /// small to garble, both are inconclusive). `visits-storage-full` fills the disk and
    /// `visits-retry-load` arms an I/O error for the next launch while the app is down.
    /// `visits-reset-data`'s user resets the data: its run with no cut, which takes the
    /// images, loses what the sweep's oracle holds it to, and its images still stand.
    @Test(arguments: [("power-loss-during-save", "hardened", "off"), ("power-loss-during-save", "hardened", "normal"),
                      ("power-loss-during-save", "legacy", nil), ("corrupted-db", "hardened", nil),
                      ("visits-storage-full", "hardened", nil), ("visits-retry-load", "hardened", nil),
                      ("visits-reset-data", "hardened", nil)] as [(String, String, String?)])
    func trialsFromImagesGiveTheVerdictsOfWholeTrials(scenario: String, variant: String, synchronous: String?) throws {
        let (a, b) = try crashSweepTwoWays(scenario, variant: variant, synchronous: synchronous, limit: 90) {
            $0.run(forkServers: true, remotePool: true, images: false)
        }
        expectTheSameOutcome(a, b, trials: 90)
        let images = try #require(a.fromImages)
        #expect(images.trials + a.failedTrials <= 90 && images.trials > 0 && images.launches <= 90, "\(images)")
        #expect(b.fromImages == nil)
    }

    /// What a trial from its image runs: the steps after the first run, when that run
    /// ends with a stop and only faults and clears meet the app that is down; a fault that
    /// meets the app still running (before the cut, in a whole trial) is no image's.
    @Test func aTrialStartsFromItsImageOnlyWhereTheStepsBetweenTheRunsMeetAnAppThatIsDown() throws {
        func steps(_ name: String) throws -> [ScenarioStep] {
            let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
            return Sweeper(scenario: try ScenarioLoader.resolve(name, in: .reference), options: options, kind: .crash, limit: 1, seeds: 1)
                .trialScenario.steps
        }
        let full = try steps("visits-storage-full")
        #expect(CrashImages.fromImage(full)?.first?.label.contains("disk-full") == true, "\(full.map(\.label))")
        #expect(CrashImages.fromImage(try steps("store-locked-at-launch")) != nil)
        #expect(CrashImages.fromImage(try steps("settings-kept-while-store-read-only")) == nil, "read-only while the app runs")
        #expect(CrashImages.fromImage(try steps("disk-full-on-save")) == nil, "a full disk stands at the cut")
    }

    /// A trial answers within the scenario's own `responsive-within`, else its
    /// `recovered-within`: `store-locked-at-launch` allows a launch 30 s under the lock
    /// (SQLite waits out 20 of them), and its sweep failed every trial "slow answers" at 5.
    @Test func aSweepHoldsItsTrialsToTheScenariosOwnBoundOnAnswering() throws {
        func oracle(_ name: String) throws -> [Chaos.Expectation] {
            let options = RunOptions(target: try TargetSelection.reference(), seed: nil, keepScratch: false)
            return Sweeper(scenario: try ScenarioLoader.resolve(name, in: .reference), options: options, kind: .crash, limit: 1, seeds: 1).oracle
        }
        #expect(try oracle("store-locked-at-launch").contains(.responsiveWithin(.seconds(30))))
        #expect(try oracle("power-loss-during-save").contains(.responsiveWithin(.seconds(5))))
    }

    /// An app that tells no `attempt` before it writes (the ledger, on sqlite-nio's own
    /// SQLite): a whole trial whose cut fell inside an action leaves that action
    /// unresolved, so the key it wrote may be there; a trial from its image knows it too.
    @Test func anAppThatTellsNoAttemptsIsJudgedFromItsImagesAsWhole() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("ledger-power.yaml")
        try Data(Self.ledgerPower.utf8).write(to: file)
        let target = try TargetSelection.userTarget(at: CheckTests.example("ledger"), variant: "fixed")
        let scenario = try ScenarioLoader.resolve(file.path, in: target.catalog)
        let (a, b) = crashSweepTwoWays(scenario, RunOptions(target: target, seed: nil, keepScratch: false), limit: 60) {
            $0.run(forkServers: true, remotePool: true, images: false)
        }
        expectTheSameOutcome(a, b, trials: 60)
        #expect(a.failures.isEmpty && a.fromImages?.trials == 60, "every trial passed from its image: \(String(describing: a.fromImages))")
    }

    static let ledgerPower = """
        name: ledger-power
        summary: The power goes out while entries are added to the ledger.
        system: ledger
        steps:
          - launch
          - do: ledger.add
            with: { amount: 5 }
          - do: ledger.add
            with: { amount: 7 }
          - stop
          - launch
          - do: ledger.list
        expect:
          - no-trap
          - preserved: acknowledged
        """
}

/// The crash sweep of a scenario of the catalog at -j 2, as it runs by default and as
/// `other` runs it.
private func crashSweepTwoWays(_ scenario: String = "power-loss-during-save", variant: String = "hardened", synchronous: String?,
                               limit: Int, other: (Sweeper) -> Sweeper.Outcome) throws -> (Sweeper.Outcome, Sweeper.Outcome) {
    var options = RunOptions(target: try TargetSelection.reference(variant: variant), seed: nil, keepScratch: false)
    if let synchronous { options.optionOverrides = ["synchronous": synchronous] }
    return crashSweepTwoWays(try ScenarioLoader.resolve(scenario, in: .reference), options, limit: limit, other: other)
}

/// The crash sweep of `scenario` at -j 2, as it runs by default and as `other` runs it.
private func crashSweepTwoWays(_ scenario: Scenario, _ options: RunOptions, limit: Int,
                               other: (Sweeper) -> Sweeper.Outcome) -> (Sweeper.Outcome, Sweeper.Outcome) {
    var sweeper = Sweeper(scenario: scenario, options: options, kind: .crash, limit: limit, seeds: 1)
    sweeper.jobs = 2
    return (sweeper.run(), other(sweeper))
}

extension Sweeper {
    /// The sweep as ``run(progress:)`` runs it, with what it starts for its trials chosen:
    /// its workers forked by fork servers or each spawned fresh, its remotes started ahead
    /// (``RemotePool``) or by each case, a crash sweep's trials from images of their cuts
    /// (``CrashImages``) or each run whole.
    func run(forkServers: Bool, remotePool: Bool, images: Bool) -> Outcome {
        var sweep = self
        let logs = try? ScratchFolder.make(in: options.scratchRoot, for: "sweep")
        let pool = forkServers ? ForkServerPool(size: jobs, logDirectory: logs ?? options.scratchRoot) : nil
        let remotes = remotePool ? logs.map(RemotePool.init(in:)) : nil
        sweep.plan.forkServers = pool
        sweep.plan.remotePool = remotes
        defer {
            remotes?.shutDown()
            pool?.shutDown()
            if let logs { try? FileManager.default.removeItem(at: logs) }
        }
        return sweep.run(images: images, progress: { _, _, _, _ in })
    }
}

/// Two ways of running one sweep agree: the same trials, verdict for verdict, the same
/// failures, coverage and failed trials.
private func expectTheSameOutcome(_ a: Sweeper.Outcome, _ b: Sweeper.Outcome, trials: Int,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(a.trials == trials && b.trials == trials, sourceLocation: sourceLocation)
    #expect(a.verdicts == b.verdicts, sourceLocation: sourceLocation)
    #expect(a.failures == b.failures, "\(a.failures) \(b.failures)", sourceLocation: sourceLocation)
    #expect(a.pointsCovered == b.pointsCovered && a.pointsTotal == b.pointsTotal, sourceLocation: sourceLocation)
    #expect(a.failedReports.map(\.reproduce) == b.failedReports.map(\.reproduce), sourceLocation: sourceLocation)
}
