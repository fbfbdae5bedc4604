/// The disk is full: writes fail with `SQLITE_FULL` (the fault VFS) or `ENOSPC` (the libc
/// seam) until the fault is cleared.
///
/// ```yaml
/// - fault: disk-full
///   on: wal                # store | journal | wal | any (default any)
///   after-bytes: 65536     # optional: let this many bytes through first
///   errno: EDQUOT          # libc: ENOSPC (default) | EDQUOT, a quota rather than a disk
/// ```
///
/// Injected in the app's process (`mechanism: vfs`, the default: the fault VFS or the
/// libc seam, per `seam:` and the target), or for real: `mechanism: tmpfs` fills the
/// case's small tmpfs so the kernel itself answers ENOSPC.
///
/// Its operations are writes and truncates that grow a file. With
/// `after-bytes`, writes that still fit in the budget are not operations at all; once
/// one does not fit, the disk is full and every later write and growth is one. The
/// bytes written and the full disk are remembered across relaunches, as a real disk
/// would keep them.
package struct DiskFullFault: StorageFault {
    package static let kind = "disk-full"
    package static let summary = "Fail writes as a full disk does (SQLITE_FULL), in the VFS or on a real full tmpfs."
    package static let example = """
        - fault: disk-full
          on: wal
        """
    package static let parameterKeys = ["after-bytes", "mechanism", "errno"]

    package enum Mechanism: String, Sendable, Codable, CaseIterable { case vfs, tmpfs }

    package var afterBytes: Int?
    package var mechanism: Mechanism
    /// ENOSPC (nil) or EDQUOT, in the libc seam.
    package var errno: StorageErrno?

    package init(afterBytes: Int? = nil, mechanism: Mechanism = .vfs, errno: StorageErrno? = nil) {
        self.afterBytes = afterBytes
        self.mechanism = mechanism
        self.errno = errno
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        afterBytes = try parameters.int("after-bytes", in: 0...1_000_000_000_000)
        let name = try parameters.oneOf("mechanism", Mechanism.allCases.map(\.rawValue)) ?? Mechanism.vfs.rawValue
        mechanism = Mechanism(rawValue: name) ?? .vfs
        errno = try StorageErrno.parse(parameters, allowed: [.enospc, .edquot])
        if mechanism == .tmpfs, afterBytes != nil {
            throw parameters.error("'after-bytes' is for the VFS mechanism; a tmpfs is full when it is full", at: "after-bytes")
        }
        for key in ["seam", "errno"] where mechanism == .tmpfs && parameters.contains(key) {
            throw parameters.error("'\(key)' is for an injected full disk; with mechanism: tmpfs the kernel itself answers ENOSPC", at: key)
        }
    }

    package var label: String {
        var text = Self.kind
        if let afterBytes { text += " after \(afterBytes) bytes" }
        if let errno { text += " (\(errno.rawValue))" }
        if mechanism == .tmpfs { text += " (real, tmpfs)" }
        return text
    }

    package var seam: StorageSeam { mechanism == .tmpfs ? .tmpfs : .inProcess }

    package struct Memory: Sendable, Codable, Equatable {
        /// Bytes written to matching files while the disk still had room.
        package var bytesWritten = 0
        /// The disk filled up: every later write is an operation.
        package var full = false
    }

    package var initialMemory: Memory { Memory() }

    package var operations: Set<StorageCall.Operation> { [.write, .truncate] }

    package func isHit(_ call: StorageCall, on: StorageFile, memory: inout Memory) -> Bool {
        guard call.isOn(on), call.operation == .write || call.grows else { return false }
        if let afterBytes, call.operation == .write, !memory.full, memory.bytesWritten + Int(call.amount) <= afterBytes {
            memory.bytesWritten += Int(call.amount)
            return false  // it still fits
        }
        return true
    }

    package func passed(_ call: StorageCall, memory: inout Memory) {
        if call.operation == .write { memory.bytesWritten += Int(call.amount) }
    }

    package func effect(of call: StorageCall, memory: inout Memory, rng: inout SplitMix64) -> StorageEffect {
        memory.full = true
        return .fail(StorageEffect.Code.full, errno: errno)
    }
}

extension DiskFullFault: HuntedFault {
    package static let huntGroup = HuntGroup.diskFull
    package static let huntWeight = 1

    /// Before a launch, now and then a real full disk (tmpfs) rather than the seam's.
    package static func huntKeys(_ draws: inout HuntDraws, _ situation: HuntSituation) -> [HuntKey] {
        guard situation.appIsClosed else { return [] }
        return draws.chance(70) ? [] : [HuntKey("mechanism", .string(Mechanism.tmpfs.rawValue))]
    }
}
