import Testing
@testable import Chaos
@testable import ChaosTarget

/// Reading a Swift 6.3 runtime crash out of a worker's stderr.
@Suite("Trap parser")
struct TrapParserTests {
    /// The real stderr of a trapping worker of this project (legacy variant, corrupted store).
    static let legacyStoreCrash = """
        SystemUnderTest/LegacyStore.swift:18: Fatal error: Failed to load store: SQLite error 26: file is not a database - while executing `SELECT * FROM sqlite_master LIMIT 1`

        *** Program crashed: Illegal instruction at 0x00007f1b25af9361 ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 4 "-qos.overcommit" crashed:

          0                  0x00007f1b25af9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
          1 [ra]             0x00005606d7940f6f static LegacyStore.launch(_:) + 702 in chaos at /work/main/Sources/SystemUnderTest/Legacy/LegacyStore.swift:18:13
          2 [ra]             0x00005606d792f675 ChaosApp.init(variant:configuration:) + 708 in chaos at /work/main/Sources/SystemUnderTest/App/ChaosApp.swift:36:37
          3 [ra] [thunk]     0x00005606d792f39c ChaosApp.__allocating_init(variant:configuration:) + 59 in chaos at /work/main/Sources/SystemUnderTest/App/ChaosApp.swift
          4 [ra]             0x00005606d79d437f SystemUnderTestTarget.launch() + 254 in chaos at /work/main/Sources/chaos/BuiltInTarget/SystemUnderTestTarget.swift:32:19
          5 [async] [thunk]  0x00005606d79dbeb0 protocol witness for ChaosTarget.launch() in conformance SystemUnderTestTarget in chaos at //<compiler-generated>
          6 [async]          0x00005606d75ad640 static WorkerHost.serve<A>(_:target:) in chaos at /work/main/Sources/ChaosTarget/Worker/WorkerHost.swift:43

        """

    /// An index out of range in a debug build: the runtime's own file on the fatal line,
    /// the first frames in the runtime (inlined standard library code), then project code.
    static let indexOutOfRange = """
        Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range

        *** Signal 4: Backtracing from 0x7f851d96df7f... done ***

        *** Program crashed: Illegal instruction at 0x00007f851d96df7f ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "chaos" crashed:

          0                  0x00007f851d96df7f closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:) + 623 in libswiftCore.so
          1 [ra]             0x00007f851daf961f _assertionFailure(_:_:file:line:flags:) + 302 in libswiftCore.so
          2 [inlined]        0x00005606d7941a12 ContiguousArrayBuffer._checkValidSubscriptMutating(_:) in chaos at /home/build-user/swift/stdlib/public/core/ContiguousArrayBuffer.swift:691:5
          3 [inlined]        0x00005606d7941a12 Array.subscript.getter in chaos at /home/build-user/swift/stdlib/public/core/Array.swift:796:17
          4 [ra]             0x00005606d7941a12 LegacyQuiz.question(at:) + 146 in chaos at /work/main/Sources/SystemUnderTest/Legacy/LegacyQuiz.swift:42:17
          5 [ra]             0x00005606d792f675 ChaosApp.perform(_:) + 708 in chaos at /work/main/Sources/SystemUnderTest/App/ChaosApp.swift:80:9
          6 [async]          0x00005606d75ad640 static WorkerHost.serve<A>(_:target:) in chaos at /work/main/Sources/ChaosTarget/Worker/WorkerHost.swift:43

        """

    // MARK: The real legacy-store crash

    /// A dependency's `assert` in a debug build (async-kit's connection pool, left without
    /// `shutdown()` when Fluent's migrator threw in a user's start-up code), as a worker printed it.
    static let dependencyAssertion = """
        AsyncKit/EventLoopGroupConnectionPool.swift:386: Assertion failed: ConnectionPool.shutdown() was not called before deinit.

        *** Signal 4: Backtracing from 0x7f23612f9361... done ***

        *** Program crashed: Illegal instruction at 0x00007f23612f9361 ***

        Thread 3 "oot.default-qos" crashed:

          0                  0x00007f23612f9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
          1 [ra]             0x000055e334ee5699 EventLoopGroupConnectionPool.deinit + 296 in todo-chaos-target at /work/todos/.build/checkouts/async-kit/Sources/AsyncKit/ConnectionPool/EventLoopGroupConnectionPool.swift:386:9
         17 [ra] [system]    0x000055e3359dae71 TodoStore.deinit + 32 in todo-chaos-target at /work/todos/Sources/TodoCore/TodoStore.swift
         21 [ra]             0x000055e3359d9fa0 TodoStore.init(path:) + 255 in todo-chaos-target at /work/todos/Sources/TodoCore/TodoStore.swift:28:5

        """

    @Test func anAssertionOrPreconditionIsReadWithWhatKindOfCheckItWas() {
        #expect(TrapParser.message(in: Self.dependencyAssertion) == "Assertion failed: ConnectionPool.shutdown() was not called before deinit.")
        #expect(TrapParser.site(in: Self.dependencyAssertion) == "TodoStore.swift:28", "the app's own line, not the dependency's")
        #expect(TrapParser.message(in: "App/Store.swift:9: Precondition failed: store open\n") == "Precondition failed: store open")
        #expect(TrapParser.site(in: "App/Store.swift:9: Precondition failed: store open\n") == "Store.swift:9")
        #expect(TrapParser.message(in: Self.legacyStoreCrash)?.hasPrefix("Failed to load store") == true, "a fatal error reads as before")
    }

    @Test func messageIsTheTextAfterFatalError() {
        #expect(TrapParser.message(in: Self.legacyStoreCrash)
            == "Failed to load store: SQLite error 26: file is not a database - while executing `SELECT * FROM sqlite_master LIMIT 1`")
    }

    @Test func siteIsTheFirstProjectFrame() {
        #expect(TrapParser.site(in: Self.legacyStoreCrash) == "LegacyStore.swift:18")
    }

    @Test func backtraceStartsAtTheCrashBannerAndKeepsTheFrames() throws {
        let backtrace = try #require(TrapParser.backtrace(in: Self.legacyStoreCrash))
        #expect(backtrace.hasPrefix("*** Program crashed: Illegal instruction at 0x00007f1b25af9361 ***"))
        #expect(backtrace.contains("static WorkerHost.serve<A>(_:target:)"))
        #expect(!backtrace.contains("Fatal error"))
    }

    @Test func trapRecordNamesSignalFourSIGILL() {
        let trap = TrapParser.trap(signal: 4, stderr: Self.legacyStoreCrash)
        #expect(trap.signal == 4)
        #expect(trap.signalName == "SIGILL")
        #expect(trap.site == "LegacyStore.swift:18")
        #expect(trap.message?.hasPrefix("Failed to load store") == true)
        #expect(trap.backtrace != nil)
    }

    @Test func framesSkipLinesWithoutAFileAndLine() {
        let frames = TrapParser.frames(in: Self.legacyStoreCrash)
        #expect(frames.map(\.path) == [
            "/work/main/Sources/SystemUnderTest/Legacy/LegacyStore.swift",
            "/work/main/Sources/SystemUnderTest/App/ChaosApp.swift",
            "/work/main/Sources/chaos/BuiltInTarget/SystemUnderTestTarget.swift",
            "/work/main/Sources/ChaosTarget/Worker/WorkerHost.swift",
        ])
        #expect(frames.map(\.line) == [18, 36, 32, 43])
    }

    // MARK: A trap inside the standard library

    @Test func runtimeFramesAreSkippedForTheSite() {
        #expect(TrapParser.site(in: Self.indexOutOfRange) == "LegacyQuiz.swift:42")
    }

    @Test func indexOutOfRangeMessage() {
        #expect(TrapParser.message(in: Self.indexOutOfRange) == "Index out of range")
    }

    @Test func backtraceStartsAtTheProgramCrashedBannerNotTheSignalLine() throws {
        let backtrace = try #require(TrapParser.backtrace(in: Self.indexOutOfRange))
        #expect(backtrace.hasPrefix("*** Program crashed: Illegal instruction"))
    }

    @Test func runtimeFatalLineIsNotASiteWithoutABacktrace() {
        #expect(TrapParser.site(in: "Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range\n") == nil)
    }

    @Test
    func anyStandardLibraryFatalLineIsNotASite() {
        // Swift 6.3 prints this for `lo..<hi` with lo > hi (checked against a real program).
        #expect(TrapParser.site(in: "Swift/Range.swift:761: Fatal error: Range requires lowerBound <= upperBound\n") == nil)
        #expect(TrapParser.site(in: "Swift/Dictionary.swift:830: Fatal error: Duplicate values for key: 'a'\n") == nil)
    }

    @Test func frameInTheWorkerHostIsNotTheSite() {
        let stderr = "  0 [async] 0x00005606d75ad640 static WorkerHost.serve<A>(_:target:) in chaos at /work/main/Sources/ChaosTarget/Worker/WorkerHost.swift:43\n"
        #expect(TrapParser.site(in: stderr) == nil)
    }

    @Test func frameInADependencyCheckoutIsNotTheSite() {
        let stderr = """
              1 [ra] 0x0000 Database.execute(sql:) + 12 in chaos at /work/main/.build/checkouts/GRDB.swift/GRDB/Core/Database.swift:900:13
              2 [ra] 0x0000 AppStore.open() + 40 in chaos at /work/main/Sources/SystemUnderTest/Store/AppStore.swift:120:9
            """
        #expect(TrapParser.site(in: stderr) == "AppStore.swift:120")
    }

    @Test
    func frameInADependencyCheckoutOfAnotherScratchPathIsNotTheSite() {
        let stderr = """
              1 [ra] 0x0000 Database.execute(sql:) + 12 in chaos at /work/main/.build-ut/checkouts/GRDB.swift/GRDB/Core/Database.swift:900:13
              2 [ra] 0x0000 AppStore.open() + 40 in chaos at /work/main/Sources/SystemUnderTest/Store/AppStore.swift:120:9
            """
        #expect(TrapParser.site(in: stderr) == "AppStore.swift:120")
    }

    /// A dependency's `assert` in a `deinit` run on one of NIO's pool threads (the real
    /// stderr of the ledger example's fragile start-up, shortened): no frame is the app's,
    /// and the message line's `SQLiteNIO/…` is a dependency, as the backtrace shows.
    @Test func aDependencysAssertOnAPoolThreadNamesNoSite() {
        let stderr = """
            SQLiteNIO/SQLiteConnection.swift:356: Assertion failed: SQLiteConnection was not closed before deinitializing

            *** Program crashed: Illegal instruction at 0x00007f02be4f9361 ***

            Thread 4 "SGLTN-TP-#0" crashed:

              0      0x00007f02be4f9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
              1 [ra] 0x000055c4cf27f99b SQLiteConnection.deinit + 330 in ledger at /w/.build/checkouts/sqlite-nio/Sources/SQLiteNIO/SQLiteConnection.swift:356:9
              9 [ra] 0x000055c4cf1dc70d NIOThreadPool.process(identifier:) + 460 in ledger at /w/.build/checkouts/swift-nio/Sources/NIOPosix/NIOThreadPool.swift:312:17

            """
        #expect(TrapParser.site(in: stderr) == nil)
        // Said why, with what the backtrace does show: never a trap left with nothing to go on.
        #expect(TrapParser.siteNote(in: stderr) == "the thread that trapped ran no code of the app's: its first frame with a "
            + "source line is SQLiteConnection.swift:356 of the dependency sqlite-nio — work the app handed to a library's own "
            + "thread (a connection released, a callback), started by the step the case names")
        #expect(TrapParser.message(in: stderr) == "Assertion failed: SQLiteConnection was not closed before deinitializing")
        // Without symbolicated frames, the message line is all there is (a sweep's trial
        // runs again with its backtrace to decide).
        #expect(TrapParser.site(in: String(stderr.prefix { $0 != "\n" })) == "SQLiteConnection.swift:356")
    }

    /// Two threads trapped and the worker ended mid-backtrace (the real stderr of the
    /// ledger example's fragile start-up on a busy machine): the app's `fatalError` and
    /// sqlite-nio's `assert` on a pool thread, no frame at all. The checkouts beside the
    /// executable the trap-key line names say `SQLiteNIO` is a dependency: the site is the
    /// app's line, whichever message came first.
    @Test func withoutFramesADependencysMessageLineIsNotTheSite() throws {
        let ledger = CheckTests.example("ledger")
        try #require(DependencyModules.checkouts(above: ledger) != nil, "a SwiftPM build: \(ledger)")
        #expect(DependencyModules.isDependency("SQLiteNIO", of: ledger) == true)
        #expect(DependencyModules.isDependency("GRDB", of: ledger) == true, "a checkout's top folder is its module")
        #expect(DependencyModules.isDependency("LedgerCore", of: ledger) == false)
        let stderr = """
            SQLiteNIO/SQLiteConnection.swift:356: Assertion failed: SQLiteConnection was not closed before deinitializing
            LedgerCore/FragileLedger.swift:22: Fatal error: Unresolved error notADatabase: file is not a database
            chaos: trap: key 2a97e4613cae30bc in \(ledger)
            swift-runtime: failed to suspend thread 7066 while processing a crash; backtraces will be missing information
            chaos: trap at a known site: signal 4 key 99c7ce6e6f9fe1ba in \(ledger)
            """
        #expect(TrapParser.site(in: stderr) == "FragileLedger.swift:22")
        let alone = stderr.split(separator: "\n").filter { !$0.contains("FragileLedger") }.joined(separator: "\n")
        #expect(TrapParser.site(in: alone) == nil, "a dependency's line is no site")
    }

    // MARK: Force unwrap

    /// Swift 6.3 reports a force unwrap at the caller's file (checked against a real program).
    static let forceUnwrap = """
        SystemUnderTest/LegacyFavorites.swift:57: Fatal error: Unexpectedly found nil while unwrapping an Optional value

        *** Program crashed: Illegal instruction at 0x00007f5009f6df7f ***

        Thread 0 "chaos" crashed:

          0      0x00007f5009f6df7f closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:) + 623 in libswiftCore.so
          1 [ra] 0x00007f500a0f961f _assertionFailure(_:_:file:line:flags:) + 302 in libswiftCore.so
          2 [ra] 0x00005576f0cc66a4 LegacyFavorites.first() + 1171 in chaos at /work/main/Sources/SystemUnderTest/Legacy/LegacyFavorites.swift:57:31

        """

    @Test func forceUnwrapMessageAndSite() {
        let trap = TrapParser.trap(signal: 4, stderr: Self.forceUnwrap)
        #expect(trap.message == "Unexpectedly found nil while unwrapping an Optional value")
        #expect(trap.site == "LegacyFavorites.swift:57")
    }

    // MARK: No backtrace

    /// Documented rule: without a project frame, the file and line of the "Fatal error"
    /// line when that is project code.
    @Test func projectFatalLineIsTheSiteWithoutABacktrace() {
        let stderr = "SystemUnderTest/Legacy/X.swift:7: Fatal error: boom\n"
        #expect(TrapParser.site(in: stderr) == "X.swift:7")
        #expect(TrapParser.message(in: stderr) == "boom")
        #expect(TrapParser.backtrace(in: stderr) == nil)
    }

    @Test func fatalErrorWithoutAFileHasAMessageButNoSite() {
        let stderr = "Fatal error: Unexpectedly found nil while unwrapping an Optional value\n"
        #expect(TrapParser.message(in: stderr) == "Unexpectedly found nil while unwrapping an Optional value")
        #expect(TrapParser.site(in: stderr) == nil)
    }

    @Test func crashBannerIsTheMessageWhenThereIsNoFatalError() {
        let stderr = "\n💣 Program crashed: Bad pointer dereference at 0x0000000000000008\n"
        #expect(TrapParser.message(in: stderr) == "Bad pointer dereference at 0x0000000000000008")
        #expect(TrapParser.backtrace(in: stderr)?.hasPrefix("💣 Program crashed") == true)
    }

    @Test func anOptimisedBuildsTrapIsNamedByTheCheckItsInlinedFrameNames() {
        let stderr = """
        *** Program crashed: Illegal instruction at 0x000056214ce43efe ***

        Thread 2 "oot.default-qos" crashed:

        0 [inlined] 0x56214ce43efe Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value in chaos at /<compiler-generated>:0:0
        0  0x56214ce43efe LegacyFamilyCreation.generateCode() in chaos at /work/main/Sources/SystemUnderTest/Legacy/LegacyFamilyCreation.swift:18:46
        """
        #expect(TrapParser.message(in: stderr) == "Unexpectedly found nil while unwrapping an Optional value")
        #expect(TrapParser.message(in: "Fatal error: Index out of range\n" + stderr) == "Index out of range", "the runtime's own line first")
    }

    @Test
    func plainTextCrashBannerIsTheMessageWithoutItsStars() {
        let stderr = "\n*** Program crashed: Illegal instruction at 0x00007f1b25af9361 ***\n"
        #expect(TrapParser.message(in: stderr) == "Illegal instruction at 0x00007f1b25af9361")
    }

    @Test func emptyStderrGivesNothing() {
        let trap = TrapParser.trap(signal: 6, stderr: "")
        #expect(trap.signalName == "SIGABRT")
        #expect(trap.message == nil)
        #expect(trap.site == nil)
        #expect(trap.backtrace == nil)
    }

    @Test func unknownSignalIsNamedByNumber() {
        #expect(TrapParser.trap(signal: 42, stderr: "").signalName == "signal 42")
    }

    @Test func backtraceIsBoundedInSize() throws {
        let stderr = "*** Program crashed: Segmentation fault ***\n" + String(repeating: "  9 [ra] 0x0 f() in chaos\n", count: 10_000)
        let backtrace = try #require(TrapParser.backtrace(in: stderr))
        #expect(backtrace.count == 64_000)
    }

    // MARK: Garbage

    @Test(arguments: [
        "\u{0}\u{1}\u{FFFD}\u{FFFD}\u{7F}\r\n\r\n",
        " at /",
        " at /x.swift:",
        " at /x.swift:notanumber:3",
        " at /x.swift:99999999999999999999999:1",
        " at /Sources/A.swift:12:4 at /",
        "Fatal error: ",
        ": Fatal error: ",
        ":::: Fatal error: ::::",
        "💣 Program crashed",
        "*** Program crashed:",
        "rbp 0x00007ffe10c70520  d0 05 c7 10 fe 7f 00 00 1f 96 af 1d 85 7f 00 00  Ð·Ç·þ·····¯·····",
        String(repeating: "\u{FFFD} at /💣.swift:", count: 500),
    ])
    func garbageNeverCrashes(stderr: String) {
        let trap = TrapParser.trap(signal: 11, stderr: stderr)
        #expect(trap.signalName == "SIGSEGV")
        #expect(trap.site == nil)
    }
}
