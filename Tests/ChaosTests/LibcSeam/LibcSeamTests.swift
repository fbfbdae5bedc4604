@testable import Chaos
import Foundation
import Testing

/// The libc seam on real files in a real process: `chaos-test-file-ops` carries out a
/// script of file operations with `libChaosLibcSeam.so` preloaded, then the test reads
/// what the folder holds. What a power cut at the file level must leave (LazyFS's
/// model), what a failed fsync must lose (Linux's, "fsyncgate"), and the errnos the
/// hook asks for.
struct LibcSeamTests {
    struct Outcome {
        var exitCode: Int32
        var lines: [String]
        var files: [String: String]
    }

    static let seamLibrary = (try? PreloadLibrary.libcSeam.path().get()) ?? "the libc seam could not be built"

    /// Runs the script in a fresh folder; `preload: false` runs it without the seam.
    func run(_ script: [String], preload: Bool = true, in parent: TemporaryFolder? = nil) throws -> Outcome {
        let folder = try parent ?? TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let result = try ChaosExecutable.run([data.path] + script, executable: ChaosExecutable.built("chaos-test-file-ops"),
                                             environment: ["LD_PRELOAD": preload ? Self.seamLibrary : ""], timeout: .seconds(30))
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? [] {
            // Lossy: a torn cut may leave garbage bytes, and the text around them still counts.
            files[name] = (try? Data(contentsOf: data.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) } ?? "<unreadable>"
        }
        return Outcome(exitCode: result.exitCode, lines: result.stdout.split(separator: "\n").map(String.init), files: files)
    }

    static let durable = ["scope", "track", "write:list:old", "fsync:list", "fsyncdir"]
    static let cut = 86

    @Test func aNewFileWhoseFolderWasNeverSyncedIsGoneAfterTheCut() throws {
        let lost = try run(["scope", "track", "write:list:hello", "fsync:list", "crash:drop:1"])
        #expect(lost.exitCode == Int32(Self.cut))
        #expect(lost.files.isEmpty, "the file's own fsync does not make its name durable")
        let kept = try run(["scope", "track", "write:list:hello", "fsync:list", "fsyncdir", "crash:drop:1"])
        #expect(kept.files == ["list": "hello"])
    }

    @Test func aRenameNotFollowedByAnFsyncOfItsFolderMayVanish() throws {
        let save = ["write:list.tmp:new", "fsync:list.tmp", "rename:list.tmp:list"]
        #expect(try run(Self.durable + save + ["crash:drop:1"]).files == ["list": "old"], "the rename undone, the old list back")
        #expect(try run(Self.durable + save + ["crash:keep:1"]).files == ["list": "new"], "or the OS had flushed it all")
        #expect(try run(Self.durable + save + ["fsyncdir", "crash:drop:1"]).files == ["list": "new"], "durable once the folder is synced")
    }

    @Test func foundationsAtomicWriteIsNotDurableUntilTheFolderIsSynced() throws {
        #expect(try run(Self.durable + ["atomic:list:new", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["atomic:list:new", "fsyncdir", "crash:drop:1"]).files == ["list": "new"])
    }

    @Test func unsyncedContentsAndUnlinksAreUndone() throws {
        #expect(try run(Self.durable + ["write:list:rewritten", "crash:drop:1"]).files == ["list": "old"], "O_TRUNC and write, no fsync")
        #expect(try run(Self.durable + ["pwrite:list:0:NEW", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["truncate:list:1", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["unlink:list", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["unlink:list", "fsyncdir", "crash:drop:1"]).files.isEmpty)
        #expect(try run(Self.durable + ["link:list:copy", "crash:drop:1"]).files == ["list": "old"])
    }

    @Test func aFailedFsyncLosesItsPagesAndARetriedFsyncDoesNotBringThemBack() throws {
        // Linux after a failed fsync: the dirty pages are marked clean. The app still
        // reads its new bytes, a retried fsync succeeds, and a cut finds the old ones,
        // whatever the cut keeps.
        let retried = try run(Self.durable + ["pwrite:list:0:NEW", "fail:sync:EIO:1", "fsync:list", "fsync:list", "read:list", "crash:keep:1"])
        #expect(retried.lines.contains("ERR fsync:list 5") && retried.lines.contains("OK fsync:list 0"))
        #expect(retried.lines.contains("READ NEW"), "the page cache still holds them")
        #expect(retried.files == ["list": "old"], "the retried fsync made nothing durable")
        // Written again after the failure and synced: durable.
        let rewritten = try run(Self.durable + ["pwrite:list:0:NEW", "fail:sync:EIO:1", "fsync:list", "pwrite:list:0:NEW", "fsync:list", "crash:keep:1"])
        #expect(rewritten.files == ["list": "NEW"])
    }

    @Test func aTornCutIsReplayedByItsSeed() throws {
        let script = Self.durable + ["write:big.tmp:" + String(repeating: "abcdefgh", count: 400), "fsync:big.tmp",
                                     "rename:big.tmp:list", "pwrite:list:700:ZZZZ"]
        let first = try run(script + ["crash:torn:7"])
        let again = try run(script + ["crash:torn:7"])
        #expect(first.exitCode == Int32(Self.cut) && first.files == again.files)
    }

    @Test(arguments: UInt64(1)...12)
    func aTornAppendNeverGarblesTheBytesSyncedBeforeIt(seed: UInt64) throws {
        // One synced line, then an unsynced append in the same 512-byte sector: the cut
        // may keep, drop or garble the append, never the line a file system had kept.
        let synced = "first line, synced\n"
        let outcome = try run(Self.durable + ["write:log:" + synced, "fsync:log", "fsyncdir", "append:log:second line, never synced\n",
                                              "crash:torn:\(seed)"])
        #expect(outcome.exitCode == Int32(Self.cut))
        #expect(outcome.files["log"]?.hasPrefix(synced) == true, "\(outcome.files)")
    }

    @Test func theCutComesAtTheArmedSyncOrAfterTheArmedChange() throws {
        // At the 2nd sync, before it happens: the folder sync never made the name durable.
        let atSync = try run(["scope", "track", "arm:2:0:drop:1", "write:list:hello", "fsync:list", "fsyncdir", "stats"])
        #expect(atSync.exitCode == Int32(Self.cut) && atSync.files.isEmpty && !atSync.lines.contains { $0.hasPrefix("STATS") })
        // Right after the 3rd change (create, write, rename): the rename happened, unsynced.
        let afterChange = try run(["scope", "track", "write:list:x", "fsync:list", "fsyncdir", "arm:0:3:keep:1",
                                   "write:list.tmp:y", "rename:list.tmp:list", "stats"])
        #expect(afterChange.exitCode == Int32(Self.cut) && afterChange.files == ["list": "y"])
    }

    @Test func theHookFailsCallsWithTheErrnoAsked() throws {
        let outcome = try run(["scope", "fail:write:ENOSPC", "write:a:x", "fail:sync:EIO", "fsync:a", "fail:rename:EROFS",
                               "rename:a:b", "fail:open:EDQUOT:1", "write:c:y", "write:c:z", "stats"])
        #expect(outcome.lines.contains("ERR write:a:x \(ENOSPC)"))
        #expect(outcome.lines.contains("ERR fsync:a \(EIO)"))
        #expect(outcome.lines.contains("ERR rename:a:b \(EROFS)"))
        #expect(outcome.lines.contains("ERR write:c:y \(EDQUOT)") && outcome.lines.contains("OK write:c:z 1"))
        #expect(outcome.files == ["a": "", "c": "z"])
        let shortened = try run(["scope", "write:a:12345678", "short-reads", "read:a"])
        #expect(shortened.lines.contains("READ 1234"), "a short read returns fewer bytes, as read(2) may")
    }

    @Test func withoutAScopeOrWithoutThePreloadEveryCallGoesStraightThrough() throws {
        let unscoped = try run(["fail:write:ENOSPC", "write:a:x", "stats"])
        #expect(unscoped.lines.contains("OK write:a:x 1") && unscoped.lines.contains("STATS calls=0,0,0,0,0,0,0 writes=0 syncs=0 pending=0"))
        let unloaded = try run(["scope", "write:a:x"], preload: false)
        #expect(unloaded.exitCode == 2 && unloaded.lines == ["NO-SEAM"])
    }

    @Test func filesOutsideTheScopeAreLeftAlone() throws {
        // The script's folder is the scope; a file beside it is neither failed nor undone.
        let folder = try TemporaryFolder()
        let outcome = try run(["scope", "track", "fail:write:EIO", "write:../outside:kept", "write:inside:lost", "crash:drop:1"], in: folder)
        #expect(outcome.lines.contains("OK write:../outside:kept 4") && outcome.lines.contains("ERR write:inside:lost \(EIO)"))
        #expect(try String(contentsOf: folder.url.appendingPathComponent("outside"), encoding: .utf8) == "kept")
    }
}
