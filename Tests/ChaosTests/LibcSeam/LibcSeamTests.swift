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

    // MARK: - Every way Linux creates, replaces, removes and syncs a file
    //
    // What real stacks call, measured with `strace -f -e trace=%file,%desc` through
    // chaos-test-file-ops and through a probe on swift-nio 2.101.3's _NIOFileSystem
    // (glibc 2.36, Swift 6.3.1, Linux 6.18, as root), replayed here with raw calls:
    //
    // - Foundation's Data.write(to:options: .atomic) (`atomic:`): openat(DIR/.dat.nosyncXXXX,
    //   O_RDWR|O_CREAT|O_EXCL, 0666), write, fsync(fd), renameat(temporary, N), close.
    //   The folder is never synced. Data.write without options: openat(N,
    //   O_WRONLY|O_CREAT|O_TRUNC, 0666), write, fsync(fd), close.
    // - FileManager.replaceItemAt(N, withItemAt: N.new) (`replace-item:`): lstat and
    //   listxattr of both, then renameat(N, N.new) — the original moved over the
    //   replacement; no renameat2 tried — and chmod(N) fails ENOENT: it throws
    //   NSFileNoSuchFileError (ENOENT beneath), N is gone and N.new holds the old bytes
    //   (swift-corelibs-foundation's _replaceItem falls back to renameat(original, new)
    //   when it does not find renameat2). Seen the same without the seam.
    // - _NIOFileSystem, withFileHandle(forWritingAt:options: .newFile(replaceExisting: true)):
    //   openat(AT_FDCWD, DIR, O_WRONLY|O_TMPFILE, 0644), pwrite64(fd, bytes, 0),
    //   fsync(fd) only if synchronize() is called, linkat(fd, "", AT_FDCWD, DIR/N,
    //   AT_EMPTY_PATH); over an existing N: EEXIST, unlink(DIR/N) (remove(3), inside
    //   glibc), linkat again; close. Nothing syncs the folder (`tmpfile:`, `nio-replace:`).
    //   Under the seam, a cut after a re-upload through the probe left the old file,
    //   as `nio-replace:` does here; before remove(3) was wrapped it left neither.
    // - stdio (`stdio:`): openat(N, O_WRONLY|O_CREAT|O_TRUNC, 0666), one write at
    //   fflush, fsync(fileno), close: all but the fsync inside glibc, where the seam
    //   counted 0 opens and 0 writes before it wrapped fopen.

    @Test func removeIsADeleteTheHookCanFail() throws {
        let outcome = try run(["scope", "write:a:x", "fail:delete:EIO:1", "remove:a", "remove:a", "mkdir:d", "remove:d", "stats"])
        #expect(outcome.lines.contains("ERR remove:a \(EIO)") && outcome.lines.contains("OK remove:a 0"))
        #expect(outcome.lines.contains("OK remove:d 0"), "a folder is removed as remove(3) removes it, with rmdir")
        #expect(outcome.lines.contains("STATS calls=1,0,1,0,0,0,3 writes=0 syncs=0 pending=0"))
        #expect(outcome.files.isEmpty)
    }

    @Test func aRemovedFileComesBackAfterTheCutUnlessItsFolderWasSynced() throws {
        #expect(try run(Self.durable + ["remove:list", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["remove:list", "fsyncdir", "crash:drop:1"]).files.isEmpty)
    }

    @Test(arguments: ["", ":proc"])
    func aNameReplacedAsSwiftNIODoesBringsTheOldFileBackAfterTheCut(link: String) throws {
        // linkat → EEXIST → remove(3) → linkat (AT_EMPTY_PATH, or /proc/self/fd/N), the new file synced, its folder not.
        let replace = "nio-replace:list:new:fsync" + link
        #expect(try run(Self.durable + [replace, "crash:drop:1"]).files == ["list": "old"], "the removal and the new link undone")
        #expect(try run(Self.durable + [replace, "crash:keep:1"]).files == ["list": "new"])
        #expect(try run(Self.durable + [replace, "fsyncdir", "crash:drop:1"]).files == ["list": "new"])
        // Never synced, as swift-nio writes unless asked: the folder's sync keeps the name, not the bytes.
        #expect(try run(Self.durable + ["nio-replace:list:newer" + link, "fsyncdir", "crash:drop:1"]).files == ["list": ""])
    }

    @Test(arguments: ["", ":proc"])
    func anUnnamedFileLinkedInVanishesAtTheCutUnlessItsFolderWasSynced(link: String) throws {
        let created = "tmpfile:blob:data:fsync" + link
        #expect(try run(["scope", "track", created, "crash:drop:1"]).files.isEmpty)
        #expect(try run(["scope", "track", created, "fsyncdir", "crash:drop:1"]).files == ["blob": "data"])
        // Linked and its folder synced, its descriptor never: the name stays, the bytes do not.
        #expect(try run(["scope", "track", "tmpfile:blob:data" + link, "fsyncdir", "crash:drop:1"]).files == ["blob": ""])
        let counted = try run(["scope", "tmpfile:blob:data" + link, "stats"])
        #expect(counted.lines.contains("STATS calls=1,0,1,0,0,1,0 writes=0 syncs=0 pending=0"), "the open, the write, the link (asked as a rename)")
    }

    @Test func stdioStreamsOpenAndWriteThroughTheSeam() throws {
        let seen = try run(["scope", "stdio:a:hello", "stats"])
        #expect(seen.lines.contains("STATS calls=1,0,1,1,0,0,0 writes=0 syncs=0 pending=0"), "fopen, the flush's write, fsync(fileno)")
        #expect(seen.files == ["a": "hello"])
        // A write the disk refuses fails the flush, where the bytes reach the file.
        let full = try run(["scope", "fail:write:ENOSPC", "stdio:a:hello"])
        #expect(full.lines.contains("STDIO fopen=0 fputs=0 fflush=\(ENOSPC) fsync=0 fclose=0") && full.files == ["a": ""])
        let refused = try run(["scope", "fail:open:EDQUOT", "stdio:a:hello"])
        #expect(refused.lines.contains("STDIO fopen=\(EDQUOT) fputs=- fflush=- fsync=- fclose=-") && refused.files.isEmpty)
        // fileno answers the stream's descriptor: the sync reaches the file (EBADF would say it did not).
        let synced = try run(["scope", "fail:sync:EIO", "stdio:a:hello"])
        #expect(synced.lines.contains("STDIO fopen=0 fputs=0 fflush=0 fsync=\(EIO) fclose=0"))
    }

    @Test func stdioWritesAreUndoneAtTheCutUnlessTheStreamsFileWasSynced() throws {
        #expect(try run(Self.durable + ["stdio:list:rewritten:nosync", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["stdio:list:rewritten", "crash:drop:1"]).files == ["list": "rewritten"])
    }

    @Test func vectoredWritesAreWritesAndTheirFlagsCount() throws {
        let failed = try run(["scope", "write:a:xxxxxxxx", "fail:write:EIO:1", "pwritev:a:2:AB", "pwritev:a:2:ABCD"])
        #expect(failed.lines.contains("ERR pwritev:a:2:AB \(EIO)") && failed.files == ["a": "xxABCDxx"])
        #expect(try run(Self.durable + ["pwritev:list:1:XY", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["pwritev:list:1:XY", "crash:keep:1"]).files == ["list": "oXY"])
        #expect(try run(Self.durable + ["pwritev2:list:0:NEW:0", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["pwritev2:list:0:NEW:dsync", "crash:drop:1"]).files == ["list": "NEW"], "RWF_DSYNC: durable when it returns")
        #expect(try run(Self.durable + ["pwritev2:list:0:+tail:append", "crash:keep:1"]).files == ["list": "old+tail"], "RWF_APPEND: at the end")
        #expect(try run(Self.durable + ["pwritev2:list:0:+tail:append", "crash:drop:1"]).files == ["list": "old"])
    }

    @Test func fallocateAndTruncateByPathAreTruncates() throws {
        let full = try run(["scope", "write:a:x", "fail:truncate:ENOSPC", "fallocate:a:4096", "fallocate:a:8192:keep", "truncate-path:a:0", "stats"])
        #expect(full.lines.contains("ERR fallocate:a:4096 \(ENOSPC)") && full.lines.contains("ERR fallocate:a:8192:keep \(ENOSPC)"))
        #expect(full.lines.contains("ERR truncate-path:a:0 \(ENOSPC)") && full.files == ["a": "x"])
        #expect(full.lines.contains("STATS calls=3,0,1,0,3,0,0 writes=0 syncs=0 pending=0"))
        #expect(try run(Self.durable + ["fallocate:list:4096", "crash:drop:1"]).files == ["list": "old"], "the growth undone")
        #expect(try run(Self.durable + ["fallocate:list:4096", "crash:keep:1"]).files["list"]?.utf8.count == 4096)
        #expect(try run(Self.durable + ["truncate-path:list:1", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["truncate-path:list:1", "fsync:list", "crash:drop:1"]).files == ["list": "o"])
    }

    @Test func aCopyIsAReadOfItsSourceAndAWriteOfItsDestination() throws {
        let faults = try run(["scope", "write:a:hello", "fail:read:EIO:1", "copy:a:b", "fail:write:ENOSPC:1", "copy:a:c", "copy:a:d", "sendfile:a:e"])
        #expect(faults.lines.contains("ERR copy:a:b \(EIO)") && faults.lines.contains("ERR copy:a:c \(ENOSPC)"))
        #expect(faults.files == ["a": "hello", "b": "", "c": "", "d": "hello", "e": "hello"])
        let source = ["write:src:NEWDATA", "fsync:src"]
        #expect(try run(Self.durable + source + ["copy:src:list", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + source + ["sendfile:src:list", "crash:drop:1"]).files == ["list": "old"])
        #expect(try run(Self.durable + ["copy:list:copy", "fsync:copy", "fsyncdir", "crash:drop:1"]).files == ["list": "old", "copy": "old"])
    }

    @Test func syncFileRangeIsASyncThatMakesNothingDurable() throws {
        // Linux writes back the range's data pages only (no metadata, no disk cache):
        // its man page promises nothing after a crash.
        let cut = try run(Self.durable + ["pwrite:list:0:NEW", "sync-range:list", "stats", "crash:drop:1"])
        #expect(cut.lines.contains("STATS calls=5,0,2,3,0,0,0 writes=3 syncs=2 pending=1") && cut.files == ["list": "old"])
        #expect(try run(["scope", "write:a:x", "fail:sync:EIO", "sync-range:a"]).lines.contains("ERR sync-range:a \(EIO)"))
    }

    @Test func msyncIsASyncOfTheMappedFile() throws {
        let synced = try run(Self.durable + ["pwrite:list:0:NEW", "msync:list", "stats", "crash:drop:1"])
        #expect(synced.lines.contains("STATS calls=5,0,2,3,0,0,0 writes=3 syncs=3 pending=0") && synced.files == ["list": "NEW"])
        let failed = try run(Self.durable + ["pwrite:list:0:NEW", "fail:sync:EIO", "msync:list", "crash:drop:1"])
        #expect(failed.lines.contains("ERR msync:list \(EIO)") && failed.files == ["list": "old"])
    }

    @Test func statfsReadsFullOnlyWhileTheHookRefusesWritesAsAFullDisk() throws {
        let outcome = try run(["scope", "write:../outside:x", "write:a:x", "statfs:a", "fail:write:ENOSPC:1", "write:a:y",
                               "statfs:a", "statfs:../outside", "write:a:z", "statfs:a"])
        #expect(outcome.lines.filter { $0.hasPrefix("STATFS") } == ["STATFS a room", "STATFS a full", "STATFS ../outside room", "STATFS a room"])
    }

    /// A disk that says it has room: the figure set wins over the real one and over a
    /// full disk, under the scope only, to the block; -1 gives the real figures back.
    @Test func aReportedFreeFigureIsWhatStatfsSaysUnderTheScope() throws {
        let outcome = try run(["scope", "write:a:x", "write:../outside:x", "free:200000000", "free-bytes:a", "fail:write:ENOSPC:1",
                               "write:a:y", "free-bytes:a", "statfs:a", "free-bytes:../outside", "free:-1", "statfs:a"])
        let free = outcome.lines.filter { $0.hasPrefix("FREE a ") }
        #expect(free.count == 2 && free.allSatisfy { line in
            line.split(separator: " ").dropFirst(2).allSatisfy { (Int($0) ?? 0) > 199_990_000 && (Int($0) ?? 0) <= 200_000_000 }
        }, "\(outcome.lines)")
        #expect(outcome.lines.filter { $0.hasPrefix("STATFS") } == ["STATFS a room", "STATFS a full"],
                "room while the figure stands, though a write was refused; full once it is gone")
        let outside = outcome.lines.first { $0.hasPrefix("FREE ../outside ") }?.split(separator: " ").last.flatMap { Int($0) } ?? 0
        #expect(outside != 200_000_000 / 4096 * 4096, "outside the scope: the real figure")
    }

    @Test func aLinkIsAskedAsARenameToItsNewName() throws {
        let outcome = try run(["scope", "write:a:x", "fail:rename:EROFS:1", "link:a:b", "link:a:c", "stats"])
        #expect(outcome.lines.contains("ERR link:a:b \(EROFS)") && outcome.lines.contains("STATS calls=1,0,1,0,0,2,0 writes=0 syncs=0 pending=0"))
        #expect(outcome.files == ["a": "x", "c": "x"])
    }

    @Test func anExchangeOfTwoNamesIsUndoneAtTheCutUnlessTheFolderWasSynced() throws {
        let exchanged = ["scope", "track", "write:a:one", "fsync:a", "write:b:two", "fsync:b", "fsyncdir", "exchange:a:b"]
        #expect(try run(exchanged + ["crash:drop:1"]).files == ["a": "one", "b": "two"])
        #expect(try run(exchanged + ["fsyncdir", "crash:drop:1"]).files == ["a": "two", "b": "one"])
    }

    @Test func foundationsReplaceItemAtIsUndoneAtTheCutUnlessTheFolderWasSynced() throws {
        // Whichever way this Foundation replaces the name (see above: here it moves
        // the original over the replacement and throws), nothing synced the folder.
        #expect(try run(Self.durable + ["replace-item:list:new", "crash:drop:1"]).files == ["list": "old"])
    }
}
