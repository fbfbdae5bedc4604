import Foundation
#if canImport(Glibc)
import Glibc
import ChaosTarget
#endif

/// How a ``ChildProcess`` is spawned: its own process group, default signals, and
/// nothing of this process but its three standard descriptors.
extension ChildProcess {
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

    /// The child leads a process group of its own (a hung worker is killed with all it
    /// started), with SIGPIPE and SIGINT back to their defaults and no signal blocked.
    static func ownGroupDefaultSignals(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        sigaddset(&defaultSignals, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
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
