import CChaosVFS
import CSQLite
import Foundation

/// The seam's side of storage faults, one VFS call at a time: which armed faults the
/// call reaches, in the order armed, and what their decisions add up to. Pure state,
/// no locking and no SQLite calls, so it can be tested by feeding it calls.
///
/// The first fault that fails a call decides its result code; faults after it do not
/// see the call (it never reached them). Delays add up.
package struct StorageFaultPolicy {
    /// One VFS call, as the C hook reports it.
    package struct Call {
        var op: Int32
        var fileKind: Int32
        var path: UnsafePointer<CChar>?
        var offset: Int64
        var amount: Int32
    }

    private(set) var armed: [any ArmedStorageFault] = []
    private(set) var firings: [StorageFiring] = []
    /// A bound on the firings kept; later ones are counted, not kept.
    package static let maxFirings = 10_000
    private(set) var droppedFirings = 0

    package var isEmpty: Bool { armed.isEmpty }

    package mutating func arm(_ fault: any ArmedStorageFault) {
        armed.removeAll { $0.id == fault.id }
        armed.append(fault)
    }

    package mutating func disarm(id: String) { armed.removeAll { $0.id == id } }
    package mutating func disarmAll() { armed.removeAll() }
    package mutating func resetFirings() {
        firings.removeAll()
        droppedFirings = 0
    }

    /// The calls a fault may care about; the hook returns early for the others.
    package static func isInteresting(op: Int32) -> Bool {
        operation(of: op) != nil
    }

    /// What one call came to: the effect to carry out, and the firings it made, each
    /// with its fault's count of firings so far.
    package struct Outcome {
        var effect = StorageEffect()
        var firings: [(firing: StorageFiring, fired: Int)] = []
    }

    /// Asks every armed fault whose directory holds the file, in the order armed.
    package mutating func decide(_ raw: Call) -> Outcome {
        var outcome = Outcome()
        guard let path = raw.path, let operation = Self.operation(of: raw.op), let file = Self.file(raw.fileKind) else {
            return outcome
        }
        var call: StorageCall?
        for index in armed.indices {
            let reaches = armed[index].directory.withUnsafeBufferPointer { prefix in
                strncmp(path, prefix.baseAddress!, prefix.count - 1) == 0
            }
            guard reaches else { continue }
            let current = call ?? StorageCall(operation: operation, file: file, path: String(cString: path),
                                              offset: raw.offset, amount: raw.amount)
            call = current
            guard let (effect, hit, fired) = armed[index].decide(current), let effect else { continue }
            let firing = StorageFiring(id: armed[index].id, kind: armed[index].kind, operation: operation.rawValue,
                                       file: file.rawValue, path: current.path, count: hit, resultCode: effect.resultCode)
            record(firing)
            outcome.firings.append((firing, fired))
            outcome.effect.delay += effect.delay
            if effect.resultCode != 0 {
                outcome.effect.resultCode = effect.resultCode
                break
            }
        }
        return outcome
    }

    /// Where every armed fault stands.
    package var progress: [FaultProgress] { armed.map(\.progress) }

    private mutating func record(_ firing: StorageFiring) {
        if firings.count < Self.maxFirings { firings.append(firing) } else { droppedFirings += 1 }
    }

    package static func operation(of op: Int32) -> StorageCall.Operation? {
        switch op {
        case CHAOS_OP_READ: .read
        case CHAOS_OP_WRITE: .write
        case CHAOS_OP_SYNC: .sync
        case CHAOS_OP_TRUNCATE: .truncate
        case CHAOS_OP_OPEN: .open
        case CHAOS_OP_LOCK: .lock
        case CHAOS_OP_SHM_LOCK: .shmLock
        case CHAOS_OP_DELETE: .delete
        default: nil
        }
    }

    /// The logical file of a C file kind; nil for temp files, sub-journals and the
    /// like, which no fault counts.
    package static func file(_ kind: Int32) -> StorageFile? {
        switch kind {
        case CHAOS_FILE_MAIN_DB: .store
        case CHAOS_FILE_MAIN_JOURNAL: .journal
        case CHAOS_FILE_WAL: .wal
        default: nil
        }
    }
}

/// A directory as a path prefix the VFS can compare with the full paths SQLite
/// hands it: symlinks resolved (as SQLite's unix VFS resolves them), ending in "/".
package enum StoragePathPrefix {
    package static func of(directory: String) -> String {
        var path = directory
        if let resolved = realpath(directory, nil) {
            path = String(cString: resolved)
            free(resolved)
        }
        return path.hasSuffix("/") ? path : path + "/"
    }
}

/// A storage fault that fired: which armed fault, what, where, at which hit, with
/// which result. The record that tells an injected failure from an organic one.
package struct StorageFiring: Codable, Sendable, Equatable {
    /// The armed fault's id (``ArmedFault/id``).
    package var id: String
    /// The fault's kind, as its wire name (`disk-full`).
    package var kind: String
    /// The operation that matched (`write`).
    package var operation: String
    /// `store`, `journal` or `wal`.
    package var file: String
    /// The file's full path.
    package var path: String
    /// The fault's hit at which it fired, 1-based.
    package var count: Int
    /// The SQLite result code returned instead of the call (0 for a delay).
    package var resultCode: Int32

    package init(id: String, kind: String, operation: String, file: String, path: String, count: Int, resultCode: Int32) {
        self.id = id
        self.kind = kind
        self.operation = operation
        self.file = file
        self.path = path
        self.count = count
        self.resultCode = resultCode
    }
}
