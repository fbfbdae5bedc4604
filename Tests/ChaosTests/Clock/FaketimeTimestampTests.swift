import Foundation
import Testing
@testable import Chaos
@testable import ChaosTarget

/// The line the clock seam writes for libfaketime, and finding libfaketime.
@Suite("Clock seam: timestamp file and libraries")
struct FaketimeTimestampTests {
    let t0 = Date(timeIntervalSince1970: 1_900_000_000)
    let utc = TimeZone(identifier: "UTC")!

    @Test func offsetsAreSignedSecondsToTheMillisecond() {
        #expect(FaketimeTimestamp.offset(.zero) == "+0")
        #expect(FaketimeTimestamp.offset(.seconds(-3600)) == "-3600")
        #expect(FaketimeTimestamp.offset(.seconds(90)) == "+90")
        #expect(FaketimeTimestamp.offset(.milliseconds(1250)) == "+1.25")
        #expect(FaketimeTimestamp.offset(.milliseconds(-3599_005)) == "-3599.005")
        #expect(FaketimeTimestamp.rate(2) == "x2")
        #expect(FaketimeTimestamp.rate(0.5) == "x0.5")
    }

    @Test func linesForARunningAFastAndAFrozenClock() {
        let back = ClockJumpFault(by: .seconds(-3600)).applied(to: .real, at: t0)
        #expect(FaketimeTimestamp.line(for: .real, workerStart: t0, withRate: false) == "+0")
        #expect(FaketimeTimestamp.line(for: back, workerStart: t0 + 50, withRate: false) == "-3600")
        let fast = ClockSkewFault(rate: 2).applied(to: back, at: t0 + 100)
        // libfaketime counts the rate from the worker's start: for a worker started 40 s
        // before the skew it would add those 40 s twice, so the line starts 40 s further back.
        #expect(FaketimeTimestamp.line(for: fast, workerStart: t0 + 60, withRate: false) == "-3640 x2")
        #expect(FaketimeTimestamp.line(for: fast, workerStart: t0 + 160, withRate: false) == "-3540 x2")
        let frozen = ClockFreezeFault(at: Date(timeIntervalSince1970: 1_938_081_600)).applied(to: back, at: t0)
        #expect(FaketimeTimestamp.line(for: frozen, workerStart: t0, withRate: true, timeZone: utc) == "2031-06-01 12:00:00")
        #expect(FaketimeTimestamp.line(for: frozen, workerStart: t0, withRate: true, timeZone: TimeZone(identifier: "Europe/Berlin")!)
            == "2031-06-01 14:00:00", "libfaketime reads absolute dates in local time")
    }

    @Test func afterAnyRateEveryLineSaysItsRate() {
        // libfaketime keeps the last `x` it read: `+0` alone would leave a 2x clock at 2x.
        #expect(FaketimeTimestamp.line(for: .real, workerStart: t0, withRate: true) == "+0 x1")
    }

    @Test func theLineAgreesWithTheClockAtEveryLaterInstant() {
        // libfaketime's reading for "+Y xR": start + Y + (now − start) × R.
        let clock = ClockSkewFault(rate: 0.5).applied(to: ClockJumpFault(by: .seconds(300)).applied(to: .real, at: t0), at: t0 + 20)
        let start = t0 + 7
        let line = FaketimeTimestamp.line(for: clock, workerStart: start, withRate: false)
        let parts = line.split(separator: " ")
        let offset = Double(parts[0])!, rate = Double(parts[1].dropFirst())!
        for later in [20.0, 21, 500, 86_400] {
            let now = t0 + later
            let libfaketime = start + offset + now.timeIntervalSince(start) * rate
            #expect(abs(libfaketime.timeIntervalSince(clock.reading(at: now))) < 0.002, "\(later)")
        }
    }

    @Test func libfaketimeIsFoundOrTheCaseSaysWhy() throws {
        let folder = try TemporaryFolder()
        let shim = try folder.write(FaketimeLibraries.shimFileName, "")
        let missing = FaketimeLibraries.locate(environment: ["CHAOS_LIBFAKETIME": "/nonexistent/libfaketime.so.1",
                                                             "CHAOS_TIMERFD_SHIM": shim.path])
        guard case let .failure(.noLibfaketime(reason)) = missing else { Issue.record("\(missing)"); return }
        #expect(reason.contains("/nonexistent/libfaketime.so.1"))
        let noShim = FaketimeLibraries.locate(environment: ["CHAOS_LIBFAKETIME": shim.path, "CHAOS_TIMERFD_SHIM": "/nonexistent.so"])
        guard case let .failure(.harness(why)) = noShim else { Issue.record("\(noShim)"); return }
        #expect(why.contains("CHAOS_TIMERFD_SHIM"))
        let found = try FaketimeLibraries.locate(environment: [:]).get()
        #expect(found.faketime.hasSuffix("/faketime/libfaketime.so.1"), "installed by `make test` (apt: libfaketime)")
        #expect(found.preload == found.shim + ":" + found.faketime, "the shim comes first")
        #expect(FaketimeLibraries.fromLibraryDirectories() != nil, "the multiarch search agrees with dpkg")
        #expect(FaketimeLibraries.fromLibraryDirectories(roots: [folder.url.path]) == nil)
    }

    @Test func workersOfAClockCaseGetTheFileAndTheShimFirstAndNoFAKETIME() throws {
        let folder = try TemporaryFolder()
        let libraries = FaketimeLibraries(shim: "/b/libChaosTimerfdShim.so", faketime: "/a/libfaketime.so.1")
        let seam = try FaketimeClock(libraries: libraries, timestampFile: folder.url.appendingPathComponent("faketime.rc"))
        let environment = seam.environment(["FAKETIME": "+5d", "LD_PRELOAD": "/c/asan.so", "PATH": "/bin"])
        #expect(environment["FAKETIME"] == nil, "FAKETIME would win over the file")
        #expect(environment["LD_PRELOAD"] == "/b/libChaosTimerfdShim.so:/a/libfaketime.so.1:/c/asan.so")
        #expect(environment["FAKETIME_DONT_FAKE_MONOTONIC"] == "1")
        #expect(environment["FAKETIME_NO_CACHE"] == "1")
        #expect(environment["FAKETIME_TIMESTAMP_FILE"] == "/proc/self/fd/237/faketime.rc", "every case's: a fork server's")
        let wrapped = seam.wrap(WorkerCommand(executable: "/w", arguments: [], environment: [:]))
        #expect(wrapped.perLaunch.environment["FAKETIME_TIMESTAMP_FILE"] == seam.timestampFile.path, "the case's own, per launch")
        #expect(wrapped.perLaunch.folders[FaketimeClock.folderDescriptor] == folder.url.path)
        #expect(environment["FAKETIME_SHARED"] == FaketimeClock.sharedPlaceholder)
        #expect(environment["PATH"] == "/bin")
        #expect(try String(contentsOf: seam.timestampFile, encoding: .utf8) == "+0\n")
        let detail = try seam.apply(ClockJumpFault(by: .seconds(-3600)))
        #expect(detail == "the app's clock is 1h behind real time (libfaketime: \"-3600\")")
        #expect(try String(contentsOf: seam.timestampFile, encoding: .utf8) == "-3600\n")
        #expect(try seam.clear(kind: "clock-jump").hasSuffix("(libfaketime: \"+0\")"))
    }
}
