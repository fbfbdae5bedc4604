import ChaosTarget

/// One fault that fired: what, where, when, and through which seam.
///
/// ```json
/// { "kind" : "io-error", "target" : "store", "detail" : "op: write, SQLITE_IOERR_WRITE",
///   "atMs" : 731, "count" : 12, "mechanism" : "vfs" }
/// ```
package struct InjectionRecord: Codable, Sendable, Equatable {
    /// The fault's wire name, e.g. `corrupt-file`.
    package var kind: String
    /// What it hit: a logical file (`store`), a fault point name, a proxy.
    package var target: String
    package var detail: String
    /// Milliseconds since the case started.
    package var atMs: Int
    /// The operation count at which it fired, when the seam counts.
    @ExplicitNull package var count: Int?
    /// Which seam carried it out: one of the ``Mechanism`` wire names.
    package var mechanism: String

    /// The wire names of ``mechanism``.
    package enum Mechanism {
        package static let fileDamage = "file-damage"
        package static let faultPoint = "fault-point"
        package static let vfs = "vfs"
        package static let libc = "libc"
        package static let tmpfs = "tmpfs"
        package static let proxy = "proxy"
        package static let libfaketime = "libfaketime"
        /// A signal to the app's process: a suspension (SIGSTOP, SIGKILL).
        package static let signal = "signal"
        /// Another worker of the target, on the same store.
        package static let peer = "peer"
    }

    package init(kind: String, target: String, detail: String, atMs: Int, count: Int? = nil, mechanism: String) {
        self.kind = kind
        self.target = target
        self.detail = detail
        self.atMs = atMs
        self.count = count
        self.mechanism = mechanism
    }

}
