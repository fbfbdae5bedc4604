import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// Real libfaketime in real workers: the app's wall clock moves, its timers do not.
/// Bounds, not sleeps: every wait is a request with a deadline; "about 200 ms" is a
/// measurement of the worker's own ContinuousClock.
@Suite(.serialized) struct ClockWorkerTests {
    /// Slack for comparing the app's clock with the test's: requests take milliseconds,
    /// SQLite's `datetime('now')` is to the second.
    let slack: TimeInterval = 5

    @Test func aWorkerAnHourBackSeesItInDateAndSQLiteWhileSleepsStayReal() throws {
        let worker = try ClockWorker(before: { _ = try $0.apply(ClockJumpFault(by: .seconds(-3600))) })
        let appNow = try worker.now()
        #expect(abs(appNow.timeIntervalSince(Date()) + 3600) < slack, "\(appNow) is not an hour before \(Date())")
        let sqliteNow = try worker.sqliteNow()
        #expect(abs(sqliteNow.timeIntervalSince(Date()) + 3600) < slack, "SQLite's datetime('now') follows: \(sqliteNow)")
        let took = try worker.sleep(ms: 200)
        #expect((150...1000).contains(took), "a 200 ms Task.sleep took \(took) ms")
    }

    @Test func aJumpMidRunMovesTheRunningAppsClockAndClearingBringsItBack() throws {
        let worker = try ClockWorker()
        let before = try worker.now()
        #expect(abs(before.timeIntervalSince(Date())) < slack)
        _ = try worker.seam.apply(ClockJumpFault(by: .seconds(-3600)))
        let after = try worker.now()
        #expect(abs(after.timeIntervalSince(before) + 3600) < slack, "before \(before), after \(after)")
        #expect(abs(try worker.sqliteNow().timeIntervalSince(Date()) + 3600) < slack)
        #expect((150...1000).contains(try worker.sleep(ms: 200)))
        _ = try worker.seam.clear(kind: "clock-jump")
        #expect(abs(try worker.now().timeIntervalSince(Date())) < slack)
    }

    @Test func aFrozenClockReadsTheSameInstantWhileTimePasses() throws {
        let worker = try ClockWorker()
        let date = Date(timeIntervalSince1970: 1_938_081_600)  // 2031-06-01 12:00:00Z
        _ = try worker.seam.apply(ClockFreezeFault(at: date))
        #expect(try worker.request(.probe("clock.now")).answer == .value(.string("2031-06-01T12:00:00.000Z")))
        #expect(try worker.request(.probe("clock.sqlite-now")).answer == .value(.string("2031-06-01 12:00:00")))
        let took = try worker.sleep(ms: 300)
        #expect((250...1100).contains(took), "a 300 ms Task.sleep took \(took) ms under a frozen clock")
        #expect(try worker.now() == date, "300 ms later the clock still reads the same")
        _ = try worker.seam.clear(kind: "clock-freeze")
        #expect(abs(try worker.now().timeIntervalSince(Date())) < slack, "and runs on from real time")
    }

    @Test func everyClockCaseHasOneCommandAndItsOwnClockInAForkedWorker() throws {
        let serverFolder = try TemporaryFolder()
        let server = try ClockWorker.forkServer(in: serverFolder)
        defer { server.shutDown() }
        let behind = try ClockWorker(forkedBy: server, before: { _ = try $0.apply(ClockJumpFault(by: .seconds(-3600))) })
        let real = try ClockWorker(forkedBy: server)
        #expect(behind.wasForked && real.wasForked, "both workers came from the one server")
        #expect(behind.seam.wrap(.reference) == real.seam.wrap(.reference), "one command for every clock case")
        #expect(abs(try behind.now().timeIntervalSince(Date()) + 3600) < slack, "the first case's clock is an hour back")
        #expect(abs(try real.now().timeIntervalSince(Date())) < slack, "the second's is real")
        #expect(abs(try behind.sqliteNow().timeIntervalSince(Date()) + 3600) < slack)
        _ = try real.seam.apply(ClockJumpFault(by: .seconds(7200)))
        #expect(abs(try real.now().timeIntervalSince(Date()) - 7200) < slack, "a jump mid-run reaches a forked worker")
        #expect(abs(try behind.now().timeIntervalSince(Date()) + 3600) < slack, "and only its own case's")
        #expect((150...1000).contains(try real.sleep(ms: 200)), "its sleeps stay real")
    }

    @Test func aFastClockInAForkedWorkerRunsAtItsRateFromWhenItWasSet() throws {
        let serverFolder = try TemporaryFolder()
        let server = try ClockWorker.forkServer(in: serverFolder)
        defer { server.shutDown() }
        // libfaketime counts a rate from its process's start, which for a forked worker is
        // its server's: at 10x, a seam that counted from the fork would make the clock
        // jump by nine times the server's age. The server is made a second older than
        // the fork by a first worker's own one-second timer: that age is what is measured.
        _ = try ClockWorker(forkedBy: server).sleep(ms: 1000)
        let worker = try ClockWorker(forkedBy: server)
        #expect(worker.wasForked)
        _ = try worker.seam.apply(ClockSkewFault(rate: 10))
        let first = try worker.now()
        // At 10x a request's round trip reads ten times as long on the fake clock (150 ms
        // on a busy runner: 1.5 s); the jump this test is about is nine times the server's
        // age, 9 s and more.
        #expect(abs(first.timeIntervalSince(Date())) < 1.5, "no jump when the rate is set: \(first) at \(Date())")
        let clock = ContinuousClock()
        let start = clock.now
        _ = try worker.sleep(ms: 500)
        let fake = try worker.now().timeIntervalSince(first)
        let real = (clock.now - start).inSeconds
        #expect(abs(fake - 10 * real) < real, "\(fake) s of the app's clock in \(real) s")
    }

    @Test func aFastClockRunsAtItsRate() throws {
        let worker = try ClockWorker()
        _ = try worker.seam.apply(ClockSkewFault(rate: 2))
        let first = try worker.now()
        #expect(abs(first.timeIntervalSince(Date())) < slack, "no jump when the rate is set")
        let clock = ContinuousClock()
        let start = clock.now
        _ = try worker.sleep(ms: 1000)
        let second = try worker.now()
        let real = (clock.now - start).inSeconds
        let fake = second.timeIntervalSince(first)
        #expect(abs(fake / real - 2) < 0.25, "\(fake) s on the app's clock in \(real) s")
        _ = try worker.seam.clear(kind: "clock-skew")
        let third = try worker.now()
        _ = try worker.sleep(ms: 500)
        let fourth = try worker.now()
        #expect(abs(fourth.timeIntervalSince(third) - 0.5) < 0.25, "1x again after clear: clock-skew")
    }

    /// Why the shim exists: the same worker, the same libfaketime and settings, only
    /// without the shim in LD_PRELOAD, never finishes a 200 ms sleep when it starts an
    /// hour back: libfaketime moves libdispatch's timerfd deadline by the offset.
    /// (Measured here: a jump made after the start makes the same sleep late instead,
    /// about 900 ms; with the shim it takes 200 ms either way.)
    @Test func withoutTheShimASleepUnderAJumpedClockNeverEnds() throws {
        let worker = try ClockWorker(environment: { environment in
            environment["LD_PRELOAD"] = environment["LD_PRELOAD"]?.split(separator: ":")
                .filter { !$0.contains("libChaosTimerfdShim") }.joined(separator: ":")
        }, before: { _ = try $0.apply(ClockJumpFault(by: .seconds(-3600))) })
        #expect(throws: ClockWorkerError.self, "a 200 ms sleep answered within 3 s without the shim") {
            _ = try worker.sleep(ms: 200, within: .seconds(3))
        }
    }

    /// libfaketime setenv()s FAKETIME_SHARED in the first faked process, which moves
    /// `environ`, and Swift on Linux finds argv from it: without the seam's placeholder
    /// the worker starts with no arguments and prints the command's help instead. (A
    /// runtime told where its backtracer is reads argv before that and is spared; one
    /// with backtracing off — a sweep's trials — is not.)
    @Test func withoutTheSharedPlaceholderTheWorkerLosesItsArguments() throws {
        #expect(throws: ClockWorkerError.self) {
            _ = try ClockWorker(environment: { $0["FAKETIME_SHARED"] = nil; $0["SWIFT_BACKTRACE"] = "enable=no" })
        }
    }

    @Test func killedWorkersLeaveNothingInDevShm() throws {
        var pid: pid_t = 0
        do {
            let worker = try ClockWorker()
            pid = try #require(worker.session?.process.pid)
            _ = worker.session?.kill()  // no exit handlers: libfaketime cannot clean up
            #expect(FileManager.default.fileExists(atPath: "/dev/shm/faketime_shm_\(pid)"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/shm/faketime_shm_\(pid)"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/shm/sem.faketime_sem_\(pid)"))
    }
}
