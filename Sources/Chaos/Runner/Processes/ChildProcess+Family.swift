import CProcessControl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a child's group left behind, and how a child ended.
extension ChildProcess {
    /// How a child ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        package var description: String {
            switch self {
            case let .exited(code): "exit \(code)"
            case let .signaled(signal): "signal \(signal) (\(ChildProcess.signalName(signal)))"
            }
        }
    }

    /// After the child ended: what is left of its process group (descendants that outlived
    /// it, holding its output open or not), ended with everything they started, gone
    /// before the next launch and the case's last look for leftovers. Returns how a
    /// report names each process ended since the last call: these, and those
    /// ``killTree()`` ended with the child.
    package func endGroup() -> [String] {
        let earlier = lock.withLock {
            defer { endedWithIt = [] }
            return endedWithIt
        }
        guard kill(-pid, 0) == 0 else { return earlier }
        let members = ProcessTable.entries().filter { $0.group == pid && $0.pid != pid && !$0.isZombie }
        return earlier + ProcessTree.end(members)
    }

    /// The conventional name of a signal number.
    package static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGSEGV: "SIGSEGV"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGPIPE: "SIGPIPE"
        default: "signal \(signal)"
        }
    }
}
