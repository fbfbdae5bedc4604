import Chaos
import ChaosTarget
import Foundation
import Testing

/// Targets that speak the worker protocol badly, one way each (`Fixtures/misbehaving/`,
/// small bash scripts): no target takes the gate down. Every command ends within the
/// case's timeout plus a few seconds, says what happened, leaves no process and no
/// scratch behind, and keeps the controller under 100 MB.
@Suite struct MisbehavingTargetTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/misbehaving")

    static func target(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Two launches with a stop between, as most scenarios do; a 3 s case timeout.
    static let scenario = """
        name: misbehaves
        summary: a target that misbehaves in one way
        system: app
        timeout: 3s
        steps:
          - launch
          - do: app.list
          - stop
          - launch
          - do: app.list
        """

    /// What one `chaos run` on a misbehaving target came to.
    struct Outcome {
        var result: ChaosExecutable.Result
        var elapsed: Duration
        var report: RunReport?
        /// Processes of the run still alive afterwards (by their unique sleep).
        var survivors: [String]
        /// Scratch folders left in the run's temporary folder.
        var scratchLeft: [String]

        var only: CaseReport? { report?.cases.first }
        var text: String { "\(result.stdout)\n\(result.stderr)" }
    }

    /// Runs the scenario on `name`, its helpers marked with a sleep no other test uses.
    static func run(_ name: String, arguments: [String] = []) throws -> Outcome {
        let work = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let scenario = try work.write("misbehaves.yaml", Self.scenario)
        let reports = work.url.appendingPathComponent("reports")
        let sleep = "987.\(UInt32.random(in: 100_000...999_999))"
        let start = ContinuousClock.now
        let result = try ChaosExecutable.run(
            ["run", scenario.path, "--target-exec", target(name), "--report-dir", reports.path] + arguments,
            temporaryDirectory: scratch.url, environment: ["CHAOS_TEST_SLEEP": sleep], timeout: .seconds(60))
        let elapsed = ContinuousClock.now - start
        let report = try? JSONReportWriter.read(from: reports.appendingPathComponent(ReportSet.jsonFileName))
        return Outcome(result: result, elapsed: elapsed, report: report,
                       survivors: try ChildProcessProbe.processes(matching: "sleep \(sleep)") + Self.processes(carrying: sleep),
                       scratchLeft: scratch.contents.filter { $0.hasPrefix("chaos-") })
    }

    /// The processes whose environment has this run's CHAOS_TEST_SLEEP: its workers and
    /// whatever they started that kept their environment.
    static func processes(carrying sleep: String) -> [String] {
        ProcessTable.entries().filter { ProcessTable.environmentValue(of: $0.pid, named: "CHAOS_TEST_SLEEP") == sleep }
            .map(ProcessTable.describe)
    }

    /// What every misbehaving run must hold to, whatever it did.
    static func expectClean(_ outcome: Outcome, within bound: Duration = .seconds(10), sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(outcome.elapsed < bound, "took \(outcome.elapsed): \(outcome.text)", sourceLocation: sourceLocation)
        #expect(outcome.survivors.isEmpty, "left running: \(outcome.survivors)", sourceLocation: sourceLocation)
        #expect(outcome.scratchLeft.isEmpty, "scratch left: \(outcome.scratchLeft)", sourceLocation: sourceLocation)
        let peak = outcome.result.peakMemoryKB ?? 0
        #expect(peak > 0 && peak < 100 * 1024, "controller peak \(peak) KiB", sourceLocation: sourceLocation)
    }

    @Test func aTargetThatClosesItsOutputButLivesOnIsAHangAtTheTimeout() throws {
        let outcome = try Self.run("closes-output")
        Self.expectClean(outcome)
        #expect(outcome.result.exitCode == 1, "\(outcome.text)")
        let noTrap = try #require(outcome.only?.expectations.first { $0.kind == "no-trap" })
        #expect(noTrap.observed.contains("hung: the worker closed its output and did not exit during 'app.list'"), "\(noTrap.observed)")
    }

    @Test func aTargetThatClosesItsOutputBeforeItIsReadyIsAHangAtTheTimeout() throws {
        let outcome = try Self.run("closes-output-before-ready")
        Self.expectClean(outcome)
        #expect(outcome.result.exitCode == 1, "\(outcome.text)")
        #expect(outcome.only?.expectations.first { $0.kind == "no-trap" }?.observed.contains("before it was ready") == true)
    }

    @Test func whatAStoppedAppLeftInItsGroupIsKilledAtOnceAndNamed() throws {
        let outcome = try Self.run("grandchild-holds-output")
        // Each stop used to wait 10 s for the helper holding the worker's output.
        Self.expectClean(outcome, within: .seconds(5))
        #expect(outcome.result.exitCode == 0, "\(outcome.text)")
        let left = outcome.only?.leftBehind ?? []
        // Named by its command line: the helper's sleep, or its subshell if the stop came first.
        #expect(left.count == 2 && left.allSatisfy { $0.contains("sleep 987.") || $0.contains("grandchild-holds-output") },
                "one per launch: \(left)")
        #expect(outcome.result.stdout.contains("left running by the app, killed: pid"), "\(outcome.result.stdout)")
    }

    @Test func helpersThatLeftTheSessionAreFoundAndNamedWithOrWithoutTheirEnvironment() throws {
        let outcome = try Self.run("grandchild-escapes")
        Self.expectClean(outcome, within: .seconds(5))
        let left = outcome.only?.leftBehind ?? []
        // Two a launch: one found by the case's mark, one (env -i) by the subreaper.
        #expect(left.count == 4, "\(left)")
        #expect(left.filter { $0.contains("/bin/sleep") }.count == 2, "\(left)")
    }

    /// `setsid sh -c 'sleep 300'`: the helper left the session, and its sleep is its own
    /// child. Both are ended, and both named: killing the helper alone once left the
    /// sleep running, re-parented to init, while the report said the helper was killed.
    @Test func aHelperThatLeftTheSessionIsEndedWithItsOwnChildAndEachIsNamed() throws {
        let outcome = try Self.run("grandchild-leaves-a-child")
        Self.expectClean(outcome, within: .seconds(5))
        #expect(outcome.result.exitCode == 0, "\(outcome.text)")
        let left = outcome.only?.leftBehind ?? []
        // One helper and one sleep a launch.
        #expect(left.filter { $0.contains("(sh -c sleep 987.") }.count == 2, "\(left)")
        #expect(left.filter { $0.contains("(sleep 987.") }.count == 2, "\(left)")
        #expect(left.count == 4, "\(left)")
    }

    @Test func aLineWithNoEndIsAProtocolErrorNotUnboundedMemory() throws {
        let outcome = try Self.run("endless-line")
        Self.expectClean(outcome)
        #expect(outcome.result.exitCode == 2, "\(outcome.text)")
        #expect(outcome.only?.verdict == .errored)
        #expect(outcome.only?.error?.contains("a line longer than 16 MiB") == true, "\(outcome.only?.error ?? "")")
    }

    @Test func aReplyNestedPastTheBoundEndsTheCaseAtOnceNamingIt() throws {
        let outcome = try Self.run("deep-replies")
        Self.expectClean(outcome, within: .seconds(8))
        #expect(outcome.result.exitCode == 2, "\(outcome.text)")
        #expect(outcome.only?.verdict == .errored)
        #expect(outcome.only?.error?.contains("nested more than 64 levels deep") == true, "\(outcome.only?.error ?? "")")
    }

    /// 400 MB of record keys: the first key past 1 KiB ends the case, and the controller
    /// never holds them (it held 354 MB, then hung).
    @Test func recordKeysPastTheBoundEndTheCaseAndKeepTheControllerSmall() throws {
        let outcome = try Self.run("long-keys")
        Self.expectClean(outcome, within: .seconds(8))
        #expect(outcome.result.exitCode == 2, "\(outcome.text)")
        #expect(outcome.only?.error?.contains("a record key of 102405 bytes") == true, "\(outcome.only?.error ?? "")")
    }

    /// A target that ends mid-request with no server in the case (nothing had made
    /// SwiftNIO ignore SIGPIPE): every run is a verdict with a report, never a dead controller.
    @Test func anAppThatClosesItsPipeMidRequestGivesAReportEveryTime() throws {
        for run in 1...20 {
            let outcome = try Self.run("closes-pipe-mid-request")
            #expect(outcome.result.exitCode != 128 + SIGPIPE && outcome.report != nil, "run \(run): \(outcome.result.exitCode) \(outcome.text)")
            #expect(outcome.only?.verdict == .deviated, "run \(run): \(outcome.text)")
            if outcome.report == nil { break }
        }
    }

    @Test func aDeclarationOverAMegabyteIsRefusedBeforeTheRun() throws {
        let outcome = try Self.run("huge-declaration")
        Self.expectClean(outcome)
        #expect(outcome.result.exitCode == 64, "\(outcome.text)")
        #expect(outcome.result.stderr.contains("declaration is longer than 1 MiB"), "\(outcome.result.stderr)")
    }

    @Test func aTrapAfterSixtyFourMegabytesOfStderrIsReadFromItsTail() throws {
        let outcome = try Self.run("huge-stderr")
        Self.expectClean(outcome)
        let trap = try #require(outcome.only?.trap)
        #expect(trap.signalName == "SIGILL")
        #expect(trap.message == "simulated after 64 MiB of output", "\(trap)")
    }

    @Test func aDeclarationThatIsNotUTF8IsRefusedBeforeTheRun() throws {
        let outcome = try Self.run("invalid-utf8-declaration")
        Self.expectClean(outcome)
        #expect(outcome.result.exitCode == 64, "\(outcome.text)")
        #expect(outcome.result.stderr.contains("declaration is not UTF-8"), "\(outcome.result.stderr)")
    }

    /// What a target built against a Chaos of protocol 1 is told.
    static let protocolRefusal = "the target speaks worker protocol 1; this chaos speaks \(WorkerProtocolVersion.current): "
        + "rebuild the target against this Chaos (docs/TARGETS.md §5)"

    /// A ready line with no version (protocol 1's) is refused when the declaration is asked,
    /// before anything runs: not a misread declaration, not a wait.
    @Test func aTargetOfAnotherProtocolIsRefusedBeforeTheRunNamingBothVersions() throws {
        let outcome = try Self.run("speaks-protocol-1")
        Self.expectClean(outcome, within: .seconds(5))
        #expect(outcome.result.exitCode == 64, "\(outcome.text)")
        #expect(outcome.result.stderr.contains("cannot be used: " + Self.protocolRefusal), "\(outcome.result.stderr)")
        #expect(outcome.report == nil, "nothing ran")
    }

    /// A worker of another protocol met at a launch ends its case at once, errored, naming both.
    @Test func aWorkerOfAnotherProtocolAtALaunchErrorsItsCaseAtOnce() throws {
        let outcome = try Self.run("speaks-protocol-1-after-describe")
        Self.expectClean(outcome, within: .seconds(5))
        #expect(outcome.result.exitCode == 2, "\(outcome.text)")
        #expect(outcome.only?.verdict == .errored)
        #expect(outcome.only?.error?.contains(Self.protocolRefusal) == true, "\(outcome.only?.error ?? "")")
    }

    @Test func anUnknownActionOnATargetOfTenThousandNamesIsOneShortLine() throws {
        let work = try TemporaryFolder()
        let scenario = try work.write("unknown.yaml", "name: unknown\nsummary: s\nsystem: app\nsteps:\n  - launch\n  - do: act-99999\n")
        let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", Self.target("many-names"),
                                              "--report-dir", work.url.appendingPathComponent("reports").path])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stderr.contains("unknown action 'act-99999'") && result.stderr.contains("and 9961 more"), "\(result.stderr.prefix(500))")
        #expect(result.stderr.utf8.count < 2_000, "\(result.stderr.utf8.count) bytes of errors")
    }

    /// The soak: a handful of them side by side, as a nightly gate with `-j` meets them.
    @Test func aHandfulSideBySideEachEndsInTimeAndLeavesNothing() throws {
        let names = ["closes-output", "closes-output-before-ready", "grandchild-holds-output", "grandchild-escapes", "endless-line",
                     "huge-stderr"]
        let outcomes = SoakResults(count: names.count)
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            outcomes.set(index, Result { try Self.run(names[index]) })
        }
        for (name, outcome) in zip(names, outcomes.all) {
            let outcome = try outcome.get()
            Self.expectClean(outcome, within: .seconds(15))
            #expect(outcome.report?.cases.count == 1, "\(name): \(outcome.text)")
        }
    }
}

/// Results filled in from several threads. Unchecked Sendable: under `lock`.
private final class SoakResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<MisbehavingTargetTests.Outcome, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<MisbehavingTargetTests.Outcome, any Error>) {
        lock.withLock { results[index] = result }
    }

    var all: [Result<MisbehavingTargetTests.Outcome, any Error>] {
        lock.withLock { results.map { $0 ?? .failure(CancellationError()) } }
    }
}
