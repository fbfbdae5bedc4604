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
