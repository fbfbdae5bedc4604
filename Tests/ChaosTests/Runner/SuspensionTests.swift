import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// `suspend` and `resume`: the steps as written, the locks read from `/proc`, and an app
/// suspended holding a lock on its shared container killed as iOS kills it (0xdead10cc).
@Suite(.serialized) struct SuspensionTests {
    @Test func aSuspensionIsReadAndWrittenBackAsWritten() throws {
        let yaml = ScenarioFixtures.scenario(steps: """
              - launch
              - suspend
              - resume
              - suspend: while-saving
                notice: 2s
              - do: favorites.add
            """)
        let scenario = try ScenarioLoader.load(yaml: yaml, file: "s.yaml", baseDirectory: nil)
        let actions = scenario.steps.map(\.action)
        #expect(actions[1] == .suspend(SuspendStep()))
        #expect(actions[2] == .resume)
        #expect(actions[3] == .suspend(SuspendStep(moment: .whileSaving, notice: .seconds(2))))
        #expect(scenario.steps[3].label == "suspend while-saving (notice 2s)")
        let written = scenario.steps.compactMap(\.written).flatMap(ScenarioWriter.lines(of:))
        #expect(written == ["  - launch", "  - suspend", "  - resume", "  - suspend: while-saving", "    notice: \"2s\"", "  - do: favorites.add"])
    }

    @Test(arguments: [
        ("  - launch\n  - suspend: later", "unknown suspension moment 'later'"),
        ("  - launch\n  - suspend: now\n    notice: 1m", "'notice' is at most 30s"),
        ("  - launch\n  - suspend: now\n    notise: 1s", "unknown key 'notise'"),
        ("  - launch\n  - resume", "'resume' needs a suspended app"),
        ("  - suspend", "needs a running app"),
        ("  - launch\n  - suspend\n  - do: favorites.add", "was suspended at line 6"),
        ("  - launch\n  - suspend\n  - stop", "add '- resume' before this step"),
    ])
    func aWrongSuspensionIsToldWhereItIs(steps: String, message: String) {
        let error = ScenarioFixtures.error(ScenarioFixtures.scenario(steps: steps))
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "loaded")")
    }

    @Test func aSuspendedAppMayBeKilledAndLaunchedAgain() {
        #expect(ScenarioFixtures.error(ScenarioFixtures.scenario(steps: "  - launch\n  - suspend\n  - kill\n  - launch\n  - do: favorites.add")) == nil)
    }

    /// Real locks, taken by this process, read back from `/proc/self/fdinfo`.
    @Test func theLocksAProcessHoldsAreReadFromProc() throws {
        let folder = try TemporaryFolder()
        let store = try folder.write("s.db", "x")
        let lockFile = try folder.write("s.lock", "")
        let storeFD = open(store.path, O_RDWR)
        let lockFD = open(lockFile.path, O_RDWR)
        defer { close(storeFD); close(lockFD) }
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        (range.l_start, range.l_len) = (120, 1)
        #expect(fcntl(storeFD, F_SETLK, &range) == 0)
        #expect(takeSharedFlock(lockFD) == 0)
        let held = HeldLocks.of(pid: getpid())
        let onStore = try #require(held.first { $0.path == store.path })
        #expect(onStore.kind == "POSIX" && onStore.write && onStore.start == "120" && onStore.end == "120")
        let onLock = try #require(held.first { $0.path == lockFile.path })
        #expect(onLock.kind == "FLOCK" && !onLock.write)
        // A shared flock outside WAL mode keeps others from writing: it counts. (Only this
        // test's two files: other tests of this process hold locks of their own meanwhile.)
        #expect(HeldLocks.blocking(held.filter { [store.path, lockFile.path].contains($0.path) }).count == 2)
    }

    /// WAL mode's shared locks (every open connection's, idle or not) never count; a write
    /// lock, or a shared lock on a store in rollback-journal mode, does.
    @Test func onlyLocksThatKeepOthersFromWritingCount() {
        let walIdle = [HeldLock(kind: "POSIX", write: false, path: "/d/a.sqlite", start: "1073741826", end: "1073742335"),
                       HeldLock(kind: "POSIX", write: false, path: "/d/a.sqlite-shm", start: "128", end: "128")]
        #expect(HeldLocks.blocking(walIdle).isEmpty)
        let walWriting = walIdle + [HeldLock(kind: "POSIX", write: true, path: "/d/a.sqlite-shm", start: "120", end: "120")]
        #expect(HeldLocks.blocking(walWriting).map(\.start) == ["120"])
        let rollbackReading = [HeldLock(kind: "POSIX", write: false, path: "/d/a.sqlite", start: "1073741826", end: "1073742335")]
        #expect(HeldLocks.blocking(rollbackReading).count == 1)
        #expect(HeldLocks.parse(fdinfo: "pos:\t0\nlock:\t1: POSIX  ADVISORY  WRITE 77 00:2f:12 120 120\n", path: "/d/x")
                == [HeldLock(kind: "POSIX", write: true, path: "/d/x", start: "120", end: "120")])
    }

    @Test func aSharedContainerNameThatIsNoFileIsRefused() {
        let declaration = TargetDeclaration(files: ["store": "a.sqlite"], actions: [], probes: [], sharedContainer: ["stroe"])
        #expect(declaration.nameProblem?.contains("'stroe' in a shared container") == true, "\(declaration.nameProblem ?? "nil")")
    }

    /// A target of a few lines of shell that keeps an exclusive `flock` on its shared
    /// store from launch (`holds`) or takes none (`lets-go`).
    static let lockHolder = """
        #!/bin/bash
        \(ShellTarget.preamble(#"{"files":{"store":"s.db"},"sharedContainer":["store"],"actions":["s.add"],"probes":[]}"#))
        while [ $# -gt 0 ]; do case "$1" in --data) data="$2"; shift ;; --variant) variant="$2"; shift ;; esac; shift; done
        while read -r line; do
          id=$(echo "$line" | sed 's/.*"id":\\([0-9]*\\).*/\\1/')
          case "$line" in
            *'"op":"launch"'*) mkdir -p "$data"; if [ "$variant" = holds ]; then exec 9>>"$data/s.db"; flock -x 9; fi ;;
          esac
          echo '{"id":'$id',"ok":true}'
          case "$line" in *'"op":"stop"'*) exit 0 ;; esac
        done
        """

    @Test func anAppSuspendedHoldingALockOnItsSharedContainerIsKilled() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("lock-holder", Self.lockHolder, executable: true)
        let scenario = try folder.write("suspended.yaml", """
            name: suspended
            summary: suspended at idle
            system: s
            steps:
              - launch
              - suspend
              - resume
              - stop
            expect:
              - no-trap
            """)
        func run(_ variant: String) throws -> CaseReport {
            let reports = try TemporaryFolder()
            let result = try ChaosExecutable.run(["run", scenario.path, "--target-exec", target.path, "--variant", variant,
                                                  "--report-dir", reports.url.path])
            #expect(result.exitCode == (variant == "holds" ? 1 : 0), "\(result.stdout)\n\(result.stderr)")
            return try #require(JSONReportWriter.read(from: reports.url.appendingPathComponent("chaos-report.json")).cases.first)
        }
        let killed = try run("holds")
        let end = try #require(killed.expectations.first { $0.kind == "no-trap" }?.end)
        guard case let .terminatedBySystem(file, lock) = end else { Issue.record("\(end)"); return }
        #expect(file == "store" && lock.hasPrefix("a write lock on s.db (FLOCK"), "\(lock)")
        #expect(killed.steps.map(\.outcome) == [.ok, .error], "the case ends at the suspension")
        #expect(killed.injections.first?.mechanism == "signal")
        let kept = try run("lets-go")
        #expect(kept.verdict == .passed)
        #expect(kept.injections.first?.detail.contains("it held no lock") == true, "\(kept.injections)")
    }
}

/// `flock(2)`, which the `flock` struct's name hides in a test that uses both.
private func takeSharedFlock(_ descriptor: Int32) -> Int32 { flock(descriptor, LOCK_SH) }
