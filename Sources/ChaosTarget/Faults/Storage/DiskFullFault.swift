/// The disk is full: writes fail with `SQLITE_FULL` until the fault is cleared.
///
/// ```yaml
/// - fault: disk-full
///   on: wal                # store | journal | wal | any (default any)
///   after-bytes: 65536     # optional: let this many bytes through first
/// ```
///
/// Injected in the fault VFS (`mechanism: vfs`, the default), or for real:
/// `mechanism: tmpfs` fills the case's small tmpfs so the kernel itself answers ENOSPC.
///
/// In the VFS, its operations are writes and truncates that grow a file. With
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
    package static let parameterKeys = ["after-bytes", "mechanism"]

    package enum Mechanism: String, Sendable, Codable, CaseIterable { case vfs, tmpfs }

    package var afterBytes: Int?
    package var mechanism: Mechanism

    package init(afterBytes: Int? = nil, mechanism: Mechanism = .vfs) {
        self.afterBytes = afterBytes
        self.mechanism = mechanism
    }

    package init(parameters: ScenarioParameters) throws(ScenarioError) {
        afterBytes = try parameters.int("after-bytes", in: 0...1_000_000_000_000)
        let name = try parameters.oneOf("mechanism", Mechanism.allCases.map(\.rawValue)) ?? Mechanism.vfs.rawValue
        mechanism = Mechanism(rawValue: name) ?? .vfs
        if mechanism == .tmpfs, afterBytes != nil {
            throw parameters.error("'after-bytes' is for the VFS mechanism; a tmpfs is full when it is full", at: "after-bytes")
        }
    }

    package var label: String {
        var text = Self.kind
        if let afterBytes { text += " after \(afterBytes) bytes" }
        if mechanism == .tmpfs { text += " (real, tmpfs)" }
        return text
    }

    package var seam: StorageSeam { mechanism == .tmpfs ? .tmpfs : .vfs }

    package struct Memory: Sendable, Codable, Equatable {
        /// Bytes written to matching files while the disk still had room.
        package var bytesWritten = 0
        /// The disk filled up: every later write is an operation.
        package var full = false
    }

    package var initialMemory: Memory { Memory() }

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
        return .fail(StorageEffect.Code.full)
    }
}
