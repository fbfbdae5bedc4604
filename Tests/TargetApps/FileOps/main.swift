import CLibcSeamAPI
import Foundation
import Synchronization

// A test app for the libc seam alone: run with the seam preloaded
// (LD_PRELOAD=libChaosLibcSeam.so), it carries out a script of file operations in one
// folder, one argument each, and prints what each returned, so a test can check the
// seam's faults and its file-level power cut on real files in a real process.
//
//   chaos-test-file-ops DIR scope track write:a:hello fsync:a fsyncdir crash:drop:1
//
// scope                  the seam looks at DIR from now on
// track                  the seam keeps what a power cut would lose
// write:N:T / append:N:T open (O_CREAT, O_TRUNC or O_APPEND), write T, close; no fsync
// pwrite:N:OFF:T         pwrite T at OFF into N
// fsync:N / fsyncdir     fsync the file N, or DIR itself
// rename:A:B / unlink:N / truncate:N:SIZE / link:A:B
// atomic:N:T             Foundation's Data.write(to:options: .atomic)
// remove:N / mkdir:N     remove(3) (a file or an empty folder), mkdir(2)
// stdio:N:T[:nosync]     fopen "w", fputs T, fflush, fsync(fileno) (unless nosync),
//                        fclose; prints "STDIO fopen=E fputs=E fflush=E fsync=E fclose=E"
//                        (E: 0, or the errno that step failed with)
// tmpfile:N:T[:fsync][:proc]   openat(DIR, O_TMPFILE|O_WRONLY), pwrite T, fsync it if
//                        asked, linkat(fd, "", AT_FDCWD, DIR/N, AT_EMPTY_PATH) (proc:
//                        linkat("/proc/self/fd/FD", AT_SYMLINK_FOLLOW); ENOENT from the
//                        first falls back to it, as swift-nio does), close
// nio-replace:N:T[:fsync][:proc]  the same, replacing N as swift-nio's _NIOFileSystem
//                        does: linkat → EEXIST → remove(3) → linkat
// exchange:A:B           renameat2(RENAME_EXCHANGE): A and B swap names
// replace-item:N:T       write T to N.new, then FileManager.replaceItemAt(N, withItemAt: N.new)
// pwritev:N:OFF:T        pwritev T (two vectors) at OFF into N
// pwritev2:N:OFF:T:FLAGS pwritev2 with RWF_* flags (dsync, sync, append, or 0)
// fallocate:N:SIZE[:keep] fallocate(fd, 0 or FALLOC_FL_KEEP_SIZE, 0, SIZE)
// truncate-path:N:SIZE   truncate(2) by path
// copy:A:B / sendfile:A:B  copy_file_range / sendfile all of A into B (created, truncated)
// sync-range:N           sync_file_range(fd, 0, 0, WAIT_BEFORE|WRITE|WAIT_AFTER)
// msync:N                mmap N shared, msync(MS_SYNC), munmap
// statfs:N               statvfs(DIR/N): prints "STATFS N full" (no blocks free) or "room"
// free:BYTES             the seam reports BYTES free under the scope (-1: the real figures)
// free-bytes:N           prints "FREE N P F": the bytes statvfs and fstatvfs say are free
// fail:OP:ERRNO[:COUNT]  the hook fails the next COUNT (default all) calls of OP
//                        (open read write sync truncate rename delete) with ERRNO
// short-reads            the hook shortens every read
// read:N                 read N whole through read(2), print its bytes
// stats                  print the seam's counters (calls by op; writes, syncs, pending)
// crash:MODE:SEED        cut the power now (drop, keep, torn); never returns
// arm:SYNC:WRITES:MODE:SEED  cut it at a later sync or after a later change

guard let seam = chaos_libc_seam_find() else {
    print("NO-SEAM")
    exit(2)
}
let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first else { exit(64) }

/// The hook's script: which op fails, with which errno, how many more times.
struct Failing { var op: Int32 = 0; var errno: Int32 = 0; var left = Int.max; var short = false }
let failing = Mutex(Failing())

let hook: chaos_libc_hook = { op, _, _, _ in
    failing.withLock { state in
        if state.short, op == CHAOS_LIBC_OP_READ { return CHAOS_LIBC_SHORT }
        guard op == state.op, state.left > 0 else { return 0 }
        state.left -= 1
        return state.errno
    }
}

let opCodes: [String: Int32] = ["open": CHAOS_LIBC_OP_OPEN, "read": CHAOS_LIBC_OP_READ, "write": CHAOS_LIBC_OP_WRITE,
                                "sync": CHAOS_LIBC_OP_SYNC, "truncate": CHAOS_LIBC_OP_TRUNCATE,
                                "rename": CHAOS_LIBC_OP_RENAME, "delete": CHAOS_LIBC_OP_DELETE]
let errnos: [String: Int32] = ["EIO": EIO, "ENOSPC": ENOSPC, "EROFS": EROFS, "EDQUOT": EDQUOT]
let modes: [String: Int32] = ["drop": 0, "keep": 1, "torn": 2]

func path(_ name: Substring) -> String { folder + "/" + name }

func report(_ step: String, _ result: Int) {
    print(result < 0 ? "ERR \(step) \(errno)" : "OK \(step) \(result)")
    fflush(nil)
}

func writeFile(_ name: Substring, _ text: Substring, flags: Int32) -> Int {
    let fd = open(path(name), O_CREAT | O_WRONLY | flags, 0o644)
    guard fd >= 0 else { return -1 }
    defer { close(fd) }
    return Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// The GNU calls Swift's Glibc module does not import, found as the app would link them
/// (the preloaded seam's first).
func gnu<T>(_ name: String, as _: T.Type) -> T {
    guard let symbol = dlsym(nil, name) else { fatalError("no \(name) in libc") }
    return unsafeBitCast(symbol, to: T.self)
}

let copyFileRange = gnu("copy_file_range", as: (@convention(c) (Int32, UnsafeMutablePointer<off_t>?, Int32, UnsafeMutablePointer<off_t>?, Int, UInt32) -> Int).self)
let fallocateCall = gnu("fallocate", as: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
let pwritev2Call = gnu("pwritev2", as: (@convention(c) (Int32, UnsafePointer<iovec>?, Int32, off_t, Int32) -> Int).self)
let syncFileRange = gnu("sync_file_range", as: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32).self)
let renameat2Call = gnu("renameat2", as: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
let truncateCall = gnu("truncate", as: (@convention(c) (UnsafePointer<CChar>, off_t) -> Int32).self)

/// Linux's O_TMPFILE (__O_TMPFILE | O_DIRECTORY) and AT_EMPTY_PATH, which Swift does not import.
let oTmpfile: Int32 = 0o20000000 | O_DIRECTORY
let atEmptyPath: Int32 = 0x1000

/// `O_TMPFILE` and `linkat` as swift-nio's _NIOFileSystem makes and names a file
/// (SystemFileHandle.swift, `_materializeLink`): AT_EMPTY_PATH first; on ENOENT (no
/// CAP_DAC_READ_SEARCH on an older kernel) /proc/self/fd with AT_SYMLINK_FOLLOW; with
/// `replacing`, EEXIST → remove(3) → the same link again. -1 with errno on failure.
func unnamedFile(_ name: Substring, _ text: Substring, options: ArraySlice<Substring>, replacing: Bool) -> Int {
    let fd = open(folder, oTmpfile | O_WRONLY, 0o644)
    guard fd >= 0 else { return -1 }
    defer { close(fd) }
    let written = Array(text.utf8).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    guard written >= 0 else { return -1 }
    if options.contains("fsync"), fsync(fd) != 0 { return -1 }
    let target = path(name)
    let viaProc = options.contains("proc")
    func link() -> Int32 {
        if !viaProc {
            let linked = linkat(fd, "", AT_FDCWD, target, atEmptyPath)
            if linked == 0 || errno != ENOENT { return linked }
        }
        return linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, target, AT_SYMLINK_FOLLOW)
    }
    if link() == 0 { return written }
    guard replacing, errno == EEXIST, remove(target) == 0, link() == 0 else { return -1 }
    return written
}

/// stdio as a C app writes a file: each step's errno (0: it worked), or nil if not run.
func stdioWrite(_ name: Substring, _ text: Substring, sync: Bool) -> [(String, Int32?)] {
    var steps: [(String, Int32?)] = [("fopen", nil), ("fputs", nil), ("fflush", nil), ("fsync", nil), ("fclose", nil)]
    func record(_ index: Int, _ ok: Bool) { steps[index].1 = ok ? 0 : errno }
    guard let stream = fopen(path(name), "w") else {
        record(0, false)
        return steps
    }
    record(0, true)
    record(1, fputs(String(text), stream) >= 0)
    record(2, fflush(stream) == 0)
    if sync { record(3, fsync(fileno(stream)) == 0) }
    record(4, fclose(stream) == 0)
    return steps
}

/// Copies all of A into B (created, truncated) with copy_file_range or sendfile.
func copyAll(_ from: Substring, _ to: Substring, sendfile useSendfile: Bool) -> Int {
    let input = open(path(from), O_RDONLY)
    guard input >= 0 else { return -1 }
    defer { close(input) }
    let output = open(path(to), O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    guard output >= 0 else { return -1 }
    defer { close(output) }
    var total = 0
    while true {
        let moved = useSendfile ? sendfile(output, input, nil, 1 << 20) : copyFileRange(input, nil, output, nil, 1 << 20, 0)
        if moved < 0 { return -1 }
        if moved == 0 { return total }
        total += moved
    }
}

func withFile(_ name: Substring, _ flags: Int32, _ body: (Int32) -> Int) -> Int {
    let fd = open(path(name), flags)
    guard fd >= 0 else { return -1 }
    let result = body(fd)
    let saved = errno
    close(fd)
    errno = saved
    return result
}

func syncPath(_ target: String, directory: Bool) -> Int {
    let fd = open(target, directory ? O_RDONLY | O_DIRECTORY : O_RDONLY)
    guard fd >= 0 else { return -1 }
    defer { close(fd) }
    return Int(fsync(fd))
}

for step in arguments.dropFirst() {
    let parts = step.split(separator: ":", omittingEmptySubsequences: false)
    switch parts[0] {
    case "scope": seam.pointee.set_scope(folder); report(step, 0)
    case "track": seam.pointee.powerloss_enable(1, 512, 1); report(step, 0)
    case "write": report(step, writeFile(parts[1], parts[2], flags: O_TRUNC))
    case "append": report(step, writeFile(parts[1], parts[2], flags: O_APPEND))
    case "pwrite":
        let fd = open(path(parts[1]), O_WRONLY)
        let written = fd < 0 ? -1 : Array(parts[3].utf8).withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(parts[2]) ?? 0) }
        if fd >= 0 { close(fd) }
        report(step, written)
    case "fsync": report(step, syncPath(path(parts[1]), directory: false))
    case "fsyncdir": report(step, syncPath(folder, directory: true))
    case "rename": report(step, Int(rename(path(parts[1]), path(parts[2]))))
    case "link": report(step, Int(link(path(parts[1]), path(parts[2]))))
    case "unlink": report(step, Int(unlink(path(parts[1]))))
    case "truncate":
        let fd = open(path(parts[1]), O_WRONLY)
        let result = fd < 0 ? -1 : Int(ftruncate(fd, off_t(parts[2]) ?? 0))
        if fd >= 0 { close(fd) }
        report(step, result)
    case "atomic":
        do {
            try Data(parts[2].utf8).write(to: URL(fileURLWithPath: path(parts[1])), options: .atomic)
            report(step, 0)
        } catch {
            print("ERR \(step) \(((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? -1)")
        }
    case "exchange": report(step, Int(renameat2Call(AT_FDCWD, path(parts[1]), AT_FDCWD, path(parts[2]), 2)))
    case "remove": report(step, Int(remove(path(parts[1]))))
    case "mkdir": report(step, Int(mkdir(path(parts[1]), 0o755)))
    case "stdio":
        let steps = stdioWrite(parts[1], parts[2], sync: !parts.dropFirst(3).contains("nosync"))
        print("STDIO " + steps.map { "\($0.0)=\($0.1.map(String.init) ?? "-")" }.joined(separator: " "))
        if let failed = steps.first(where: { ($0.1 ?? 0) != 0 }) { errno = failed.1 ?? 0 }
        report(step, steps.contains { ($0.1 ?? 0) != 0 } ? -1 : 0)
    case "tmpfile": report(step, unnamedFile(parts[1], parts[2], options: parts.dropFirst(3), replacing: false))
    case "nio-replace": report(step, unnamedFile(parts[1], parts[2], options: parts.dropFirst(3), replacing: true))
    case "replace-item":
        do {
            let replacement = URL(fileURLWithPath: path(parts[1]) + ".new")
            try Data(parts[2].utf8).write(to: replacement)
            _ = try FileManager.default.replaceItemAt(URL(fileURLWithPath: path(parts[1])), withItemAt: replacement)
            report(step, 0)
        } catch {
            // The POSIX error under Foundation's (userInfo's, or CocoaError's own).
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError) ?? (error as? CocoaError)?.underlying.map { $0 as NSError }
            print("ERR \(step) \(underlying?.code ?? -1)")
        }
    case "pwritev", "pwritev2":
        let bytes = Array(parts[3].utf8)
        let rwf: Int32 = switch parts.count > 4 ? parts[4] : "" {
        case "dsync": 0x2
        case "sync": 0x4
        case "append": 0x10
        default: 0
        }
        report(step, withFile(parts[1], O_WRONLY) { fd in
            bytes.withUnsafeBufferPointer { buffer in
                let half = buffer.count / 2
                let base = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
                let vectors = [iovec(iov_base: base, iov_len: half), iovec(iov_base: base.map { $0 + half }, iov_len: buffer.count - half)]
                let offset = off_t(parts[2]) ?? 0
                return parts[0] == "pwritev" ? pwritev(fd, vectors, 2, offset) : pwritev2Call(fd, vectors, 2, offset, rwf)
            }
        })
    case "fallocate":
        let mode: Int32 = parts.count > 3 && parts[3] == "keep" ? 0x01 : 0
        report(step, withFile(parts[1], O_WRONLY) { Int(fallocateCall($0, mode, 0, off_t(parts[2]) ?? 0)) })
    case "truncate-path": report(step, Int(truncateCall(path(parts[1]), off_t(parts[2]) ?? 0)))
    case "copy", "sendfile": report(step, copyAll(parts[1], parts[2], sendfile: parts[0] == "sendfile"))
    case "sync-range": report(step, withFile(parts[1], O_WRONLY) { Int(syncFileRange($0, 0, 0, 1 | 2 | 4)) })
    case "msync":
        report(step, withFile(parts[1], O_RDWR) { fd in
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_size > 0,
                  let map = mmap(nil, Int(info.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else { return -1 }
            let synced = msync(map, Int(info.st_size), MS_SYNC)
            let saved = errno
            munmap(map, Int(info.st_size))
            errno = saved
            return Int(synced)
        })
    case "free":
        seam.pointee.set_reported_free(Int64(parts[1]) ?? -1)
        report(step, 0)
    case "free-bytes":
        var byPath = statvfs(), byFD = statvfs()
        let fd = open(path(parts[1]), O_RDONLY)
        if statvfs(path(parts[1]), &byPath) == 0, fd >= 0, fstatvfs(fd, &byFD) == 0 {
            print("FREE \(parts[1]) \(UInt64(byPath.f_bavail) * UInt64(byPath.f_frsize)) \(UInt64(byFD.f_bavail) * UInt64(byFD.f_frsize))")
        }
        if fd >= 0 { close(fd) }
    case "statfs":
        var info = statvfs()
        if statvfs(path(parts[1]), &info) == 0 {
            print("STATFS \(parts[1]) \(info.f_bavail == 0 && info.f_bfree == 0 ? "full" : "room")")
        } else {
            print("ERR \(step) \(errno)")
        }
    case "fail":
        failing.withLock { $0 = Failing(op: opCodes[String(parts[1])] ?? 0, errno: errnos[String(parts[2])] ?? EIO,
                                        left: parts.count > 3 ? Int(parts[3]) ?? .max : .max) }
        seam.pointee.set_hook(hook)
        report(step, 0)
    case "short-reads":
        failing.withLock { $0.short = true }
        seam.pointee.set_hook(hook)
        report(step, 0)
    case "read":
        let fd = open(path(parts[1]), O_RDONLY)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fd < 0 ? -1 : read(fd, &buffer, buffer.count)
        if fd >= 0 { close(fd) }
        print(count < 0 ? "ERR \(step) \(errno)" : "READ \(String(decoding: buffer.prefix(count), as: UTF8.self))")
    case "stats":
        var calls = [CLongLong](repeating: 0, count: Int(CHAOS_LIBC_OP_COUNT))
        seam.pointee.counters(&calls)
        var writes: CLongLong = 0, syncs: CLongLong = 0, pending: CLongLong = 0
        seam.pointee.powerloss_stats(&writes, &syncs, &pending)
        print("STATS calls=\(calls.dropFirst().map(String.init).joined(separator: ",")) writes=\(writes) syncs=\(syncs) pending=\(pending)")
    case "crash":
        fflush(nil)
        seam.pointee.powerloss_crash(modes[String(parts[1])] ?? 0, UInt64(parts[2]) ?? 0)
    case "arm":
        seam.pointee.powerloss_arm(Int32(parts[1]) ?? 0, Int32(parts[2]) ?? 0, modes[String(parts[3])] ?? 0, UInt64(parts[4]) ?? 0)
        report(step, 0)
    default:
        print("UNKNOWN \(step)")
        exit(64)
    }
}
fflush(nil)
