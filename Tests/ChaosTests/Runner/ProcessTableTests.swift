import Foundation
import Testing
@testable import Chaos

/// The process table is read at every kill (a tree is frozen before it is ended), so it
/// is parsed from bytes; what it reads must be what `/proc/PID/stat` says.
@Suite struct ProcessTableTests {
    @Test func aStatLineIsReadAfterTheLastParenthesisOfItsName() throws {
        let line = "4242 (a (b) c) S 7 4242 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 100 18446744073709551615\n"
        let entry = try #require(ProcessTable.parse(stat: line))
        #expect(entry == ProcessEntry(pid: 4242, parent: 7, group: 4242, session: 4240, state: "S", startTicks: 98765, name: "a (b) c", cpuTicks: 3),
                "its CPU: utime 1 and stime 2")
        #expect(ProcessTable.parse(stat: "4242 (x) S 7") == nil, "too few fields")
        #expect(ProcessTable.parse(stat: "pid (x) S 7 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 5") == nil, "no pid")
        #expect(ProcessTable.parse(stat: "") == nil)
    }

    @Test func theTableHoldsThisProcessAsTheKernelSeesIt() throws {
        let me = try #require(ProcessTable.entries().first { $0.pid == getpid() })
        #expect(me.parent == getppid())
        #expect(me.group == getpgrp())
        #expect(!me.isZombie)
        let again = try #require(ProcessTable.entry(getpid()))
        #expect((again.startTicks, again.name, again.session) == (me.startTicks, me.name, me.session))
    }

    /// A worker ended mid-backtrace (a second thread's trap) leaves the runtime's
    /// `swift-backtrace` waiting on in its group: ended with the group, never named as
    /// the app's leftover; anything else left there still is.
    @Test func aBacktracerLeftInTheGroupIsEndedUnnamed() throws {
        let folder = try TemporaryFolder()
        let backtracer = folder.url.appendingPathComponent("swift-backtrace").path
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: backtracer)
        // "started" once both have become what they run (not a fork of the shell still).
        let script = """
            "$1" 300 & a=$!; sleep 300 & b=$!
            until [ "$(cat /proc/$a/comm)" = swift-backtrace ] && [ "$(cat /proc/$b/comm)" = sleep ]; do :; done
            echo started
            """
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script, "sh", backtracer], environment: [:],
                                     stderrFile: folder.url.appendingPathComponent("stderr"))
        child.closeInput()
        #expect(child.readLine(deadline: .now + .seconds(10)) == .line("started"))
        _ = child.waitForExit(deadline: .now + .seconds(10))
        let group = ProcessTable.entries().filter { $0.group == child.pid && !$0.isZombie }
        #expect(group.filter(\.isSwiftBacktracer).count == 1 && group.count == 2, "\(group.map(\.name))")
        let named = child.endGroup()
        #expect(named.count == 1 && named.allSatisfy { $0.contains("sleep 300") && !$0.contains("swift-backtrace") }, "\(named)")
        #expect(ProcessTable.entries().filter { $0.group == child.pid && !$0.isZombie }.isEmpty)
    }
}
