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
}
