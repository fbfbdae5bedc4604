@testable import Chaos
import ChaosTarget
import Foundation
import Testing

/// What the seams saw the app do is part of a case's outcome, step by step, as values:
/// each distinct call on a file with what the app was told (an SQLite result code from the
/// fault VFS, an errno from the libc seam) and how often — whatever fault was armed, and
/// with none. Issue 45's run signature is built on these.
@Suite struct SeamCallsSeenTests {
    static func run(_ yaml: String, target: String? = nil, variant: String = "fixed") throws -> CaseReport {
        let folder = try TemporaryFolder()
        let file = try folder.write("seen.yaml", yaml)
        var arguments = ["run", file.path, "--variant", variant, "--report-dir", folder.url.appendingPathComponent("r").path]
        if let target { arguments += ["--target-exec", target] }
        _ = try ChaosExecutable.run(arguments, timeout: .seconds(120))
        return try #require(try JSONReportWriter.read(from: folder.url.appendingPathComponent("r/chaos-report.json")).cases.first)
    }

    /// The calls of the step that ran `label`.
    static func calls(_ report: CaseReport, step label: String) -> [SeamCall] {
        report.steps.first { $0.label == label }?.calls ?? []
    }

    @Test func theStoreTheFaultVFSFailedIsSeenWithTheCodeSQLiteGot() throws {
        let report = try Self.run("""
            name: seen-disk-full
            summary: The disk fills while the user saves a favourite.
            system: favorites
            steps:
              - launch
              - fault: disk-full
                on: any
              - do: favorites.add
                expect-error: true
              - clear: all
              - do: favorites.list
            expect:
              - no-trap
            """, variant: "hardened")
        let failed = Self.calls(report, step: "do favorites.add (expect error)").filter(\.failed)
        #expect(failed.contains { $0.seam == .sqlite && $0.result == "SQLITE_FULL" && ($0.op == .write || $0.op == .truncate) },
                "\(failed)")
        // Every failure of the fault VFS is the fault's; the libc seam's, if any, are the
        // app's own (the driver's counter file, not there yet: ENOENT).
        #expect(failed.filter { $0.seam == .sqlite }.allSatisfy { $0.result == "SQLITE_FULL" }, "only what the fault answered failed: \(failed)")
        // The read after the clear: the store is read, and nothing fails.
        let read = Self.calls(report, step: "do favorites.list")
        #expect(!read.contains { $0.failed }, "\(read)")
        // The launch opened the store through the shim, by its name under the data folder.
        let launch = Self.calls(report, step: "launch")
        #expect(launch.contains { $0.seam == .sqlite && $0.op == .open && $0.result == SeamCall.ok && !$0.file.hasPrefix("/") && !$0.file.isEmpty },
                "\(launch)")
    }

    @Test func aPlainFileAppsFailedFsyncIsSeenWithTheErrnoItGot() throws {
        let report = try Self.run("""
            name: seen-fsync
            summary: The disk refuses to sync the list.
            system: todos
            steps:
              - launch
              - fault: io-error
                op: sync
                errno: EIO
                times: 1
              - do: todos.add
                expect-error: true
              - clear: all
              - do: todos.list
            expect:
              - no-trap
            """, target: CheckTests.example("todos"))
        let calls = Self.calls(report, step: "do todos.add (expect error)")
        #expect(calls.contains { $0.seam == .libc && $0.op == .sync && $0.result == "EIO" && $0.count == 1 }, "\(calls)")
        #expect(calls.contains { $0.seam == .libc && $0.op == .write && $0.result == SeamCall.ok }, "the write before the sync: \(calls)")
        #expect(!Self.calls(report, step: "do todos.list").contains { $0.failed })
    }

    @Test func theCallsComeOutOfTheSeamsTableAsValues() {
        let line: Substring = "4 778 4 /data/app/store.sqlite-wal"
        let call = SeamCall.call(line, seam: .sqlite, prefix: "/data/app/")
        #expect(call == SeamCall(seam: .sqlite, op: .write, file: "store.sqlite-wal", result: "SQLITE_IOERR_WRITE", count: 4))
        let dropped = SeamCall.call("dropped 7", seam: .libc, prefix: "/x/")
        #expect(dropped?.result == SeamCall.dropped && dropped?.count == 7 && dropped?.failed == false)
        var merged: [SeamCall] = []
        SeamCall.add(SeamCall(seam: .libc, op: .sync, file: "a", result: "EIO", count: 1), to: &merged)
        SeamCall.add(SeamCall(seam: .libc, op: .sync, file: "a", result: "EIO", count: 2), to: &merged)
        SeamCall.add(SeamCall(seam: .libc, op: .sync, file: "a", result: SeamCall.ok, count: 1), to: &merged)
        #expect(merged.map(\.count) == [3, 1])
        #expect(SeamCall.errnoName(EIO) == "EIO" && SeamCall.errnoName(9999) == "errno 9999")
        // Paths as filed: below the data folder, the folder itself, an unnamed file, elsewhere.
        #expect(SeamCall.name("/d/app/blobs/#1622", prefix: "/d/app/") == "blobs/#unnamed")
        #expect(SeamCall.name("/d/app", prefix: "/d/app/") == "." && SeamCall.name("/d/app/#9", prefix: "/d/app/") == "#unnamed")
        #expect(SeamCall.name("/etc/x", prefix: "/d/app/") == "/etc/x" && SeamCall.name("/d/app/#notes", prefix: "/d/app/") == "#notes")
        // The HTML timeline says what the app was failed, beside the step; successes and
        // dropped counts are the JSON's.
        #expect(HTMLTimeline.failedCalls(merged + [dropped].compactMap { $0 }) == "told: sync a → EIO ×3")
        #expect(HTMLTimeline.failedCalls([SeamCall(seam: .sqlite, op: .read, file: "", result: SeamCall.ok, count: 9)]) == nil)
    }
}
