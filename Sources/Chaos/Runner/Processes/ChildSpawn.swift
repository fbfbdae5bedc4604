import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
import ChaosTarget
#endif

/// How a ``ChildProcess`` (and a fork server) is spawned: its own session and process
/// group, default signals, and nothing of this process but its three standard descriptors.
enum ChildSpawn {
    /// Two pipes, to the child and from it, every end close-on-exec (Glibc's module
    /// does not export pipe2: call under ``SpawnedChildren/spawnLock``).
    static func makePipes() throws -> (toChild: [Int32], fromChild: [Int32]) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw ChaosError.spawnFailed("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (toChild, fromChild)
    }

    /// posix_spawn with C strings made of the arguments and environment; its result code.
    static func spawn(_ executable: String, _ arguments: [String], _ environment: [String: String],
                              _ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t,
                              pid: inout pid_t) -> Int32 {
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var argvList = argv + [nil]
        var envList = envp + [nil]
        return argvList.withUnsafeMutableBufferPointer { argvBuffer in
            envList.withUnsafeMutableBufferPointer { envBuffer -> Int32 in
                guard let argvBase = argvBuffer.baseAddress, let envBase = envBuffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, executable, &actions, &attributes, argvBase, envBase)
            }
        }
    }

    /// The child leads a session and a process group of its own (a hung worker is killed
    /// with all it started; a descendant that leaves the group stays in the session, where
    /// ``ProcessLeftovers`` finds it), with SIGPIPE and SIGINT back to their defaults and
    /// no signal blocked. With no controlling terminal, a target cannot stop to ask one.
    static func ownSessionDefaultSignals(_ attributes: inout posix_spawnattr_t) {
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        sigaddset(&defaultSignals, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, chaos_posix_spawn_setsid_flag() | Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }

    /// glibc 2.34+ closes every descriptor from 3 up in the child, atomically
    /// (`posix_spawn_file_actions_addclosefrom_np`, looked up at run time: Swift's Glibc
    /// module does not export it). Older C libraries: the descriptors open now.
    static func closeEverythingAbove2(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = UnsafeMutableRawPointer(bitPattern: closeFromAddress) {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, 3) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// The function's address (0 when the C library has none), kept as a Sendable integer.
    static let closeFromAddress: Int = Int(bitPattern: dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np"))
}
