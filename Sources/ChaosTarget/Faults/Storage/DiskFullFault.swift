/// The disk is full: writes fail with `SQLITE_FULL` (the fault VFS) or `ENOSPC` (the libc
/// seam) until the fault is cleared.
///
/// ```yaml
/// - fault: disk-full
///   on: wal                # store | journal | wal | any (default any)
///   after-bytes: 65536     # optional: let this many bytes through first
///   errno: EDQUOT          # libc: ENOSPC (default) | EDQUOT, a quota rather than a disk
///   reported-free: 200MB   # optional: what statfs/statvfs say is free meanwhile
/// ```
///
/// With `reported-free`, the disk says it has that much room (statfs, fstatfs, statvfs,
/// fstatvfs of the app's files, through the libc seam, whichever seam fails the writes)
/// while the writes fail: iOS keeps a reserve an app cannot write into, and answers
/// "disk full" with 50–200 MB shown free (Expensify/App#87869). An app that checks the
/// free space, finds plenty and concludes its store is damaged wipes it (GRDB#1251).
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
    package static let parameterKeys = ["after-bytes", "mechanism", "errno", "reported-free"]

    package enum Mechanism: String, Sendable, Codable, CaseIterable { case vfs, tmpfs }

    package var afterBytes: Int?
    package var mechanism: Mechanism
    /// ENOSPC (nil) or EDQUOT, in the libc seam.
    package var errno: StorageErrno?
    /// The bytes statfs reports free while it stands; nil: the real figures (none free
    /// once a write failed).
    package var reportedFree: Int64?

    package init(afterBytes: Int? = nil, mechanism: Mechanism = .vfs, errno: StorageErrno? = nil, reportedFree: Int64? = nil) {
        self.afterBytes = afterBytes
        self.mechanism = mechanism
        self.errno = errno
        self.reportedFree = reportedFree
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        afterBytes = try parameters.int("after-bytes", in: 0...1_000_000_000_000)
        let name = try parameters.oneOf("mechanism", Mechanism.allCases.map(\.rawValue)) ?? Mechanism.vfs.rawValue
        mechanism = Mechanism(rawValue: name) ?? .vfs
        errno = try StorageErrno.parse(parameters, allowed: [.enospc, .edquot])
        reportedFree = try Self.size(parameters, "reported-free")
        if mechanism == .tmpfs, afterBytes != nil {
            throw parameters.error("'after-bytes' is for the VFS mechanism; a tmpfs is full when it is full", at: "after-bytes")
        }
        for key in ["seam", "errno", "reported-free"] where mechanism == .tmpfs && parameters.contains(key) {
            throw parameters.error("'\(key)' is for an injected full disk; with mechanism: tmpfs the kernel itself answers ENOSPC", at: key)
        }
    }

    package var label: String {
        var text = Self.kind
        if let afterBytes { text += " after \(afterBytes) bytes" }
        if let errno { text += " (\(errno.rawValue))" }
        if let reportedFree { text += ", \(Self.format(reportedFree)) reported free" }
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

extension DiskFullFault {
    /// The units of a size, decimal as a phone's settings show free space.
    static let sizeUnits: [(String, Int64)] = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1)]

    /// `200MB`, `1GB`, `512KB`, `0B`: a whole number and a unit.
    static func size(_ parameters: ScenarioParameters, _ key: String) throws(ScenarioError) -> Int64? {
        guard let text = try parameters.string(key)?.trimmingSpaces else { return nil }
        for (unit, factor) in sizeUnits where text.uppercased().hasSuffix(unit) {
            let number = String(text.dropLast(unit.count)).trimmingSpaces
            if let value = Int64(number), value >= 0, value <= Int64.max / factor { return value * factor }
            break
        }
        throw parameters.error("'\(key)' is a size like 200MB, 1GB or 512KB (1 KB = 1000 bytes), found '\(text)'", at: key)
    }

    /// `200MB` for 200,000,000 bytes; bytes when no unit divides it.
    static func format(_ bytes: Int64) -> String {
        let (unit, factor) = sizeUnits.first { bytes >= $0.1 && bytes % $0.1 == 0 } ?? ("B", 1)
        return "\(bytes / factor)\(unit)"
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
