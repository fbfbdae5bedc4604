import Synchronization
#if canImport(Glibc)
import Glibc
import ChaosTarget
#endif

/// Ctrl-C: the run stops between steps, kills the running worker, and still writes the
/// report for what finished (exit 130).
package enum RunInterruption {
    private static let flag = Atomic<Bool>(false)

    package static var requested: Bool { flag.load(ordering: .relaxed) }

    /// Installs the SIGINT and SIGTERM handlers. Workers run in their own process group,
    /// so a terminal's Ctrl-C reaches only the controller.
    package static func install() {
        signal(SIGINT) { _ in RunInterruption.flag.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in RunInterruption.flag.store(true, ordering: .relaxed) }
    }

    /// For tests.
    package static func request() { flag.store(true, ordering: .relaxed) }
    package static func reset() { flag.store(false, ordering: .relaxed) }
}
