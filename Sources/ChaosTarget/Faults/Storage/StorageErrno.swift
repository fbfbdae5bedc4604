import Foundation

/// The errnos a storage fault may make a libc call fail with (`errno:` in a scenario):
/// what a real disk answers when it is full, over quota, read-only, or failing; and
/// `EPERM`, what a locked device answers for a protected file, and `ENOMEM`, memory run
/// short (`device-locked`'s and `memory-pressure`'s, not values `errno:` takes); and
/// `EDEADLK` ("Resource deadlock avoided"), an open of a file still downloading from the
/// cloud (`io-error`'s `op: open`).
///
/// In the fault VFS, SQLite's own mapping applies: `ENOSPC` and `EDQUOT` on a write
/// are `SQLITE_FULL`, anything else the operation's `SQLITE_IOERR_*`.
package enum StorageErrno: String, Sendable, Codable, CaseIterable {
    case eio = "EIO"
    case enospc = "ENOSPC"
    case erofs = "EROFS"
    case edquot = "EDQUOT"
    case eperm = "EPERM"
    case enomem = "ENOMEM"
    case edeadlk = "EDEADLK"

    package var value: Int32 {
        switch self {
        case .eio: EIO
        case .enospc: ENOSPC
        case .erofs: EROFS
        case .edquot: EDQUOT
        case .eperm: EPERM
        case .enomem: ENOMEM
        case .edeadlk: EDEADLK
        }
    }

    /// A full disk, as SQLite's unix VFS reads these errnos on a write.
    package var meansFull: Bool { self == .enospc || self == .edquot }

    /// Reads `errno:` of a fault step, limited to `allowed`.
    package static func parse(_ parameters: ScenarioParameters, allowed: [StorageErrno] = allCases) throws(ScenarioError) -> StorageErrno? {
        try parameters.oneOf("errno", allowed.map(\.rawValue)).flatMap(StorageErrno.init(rawValue:))
    }
}
