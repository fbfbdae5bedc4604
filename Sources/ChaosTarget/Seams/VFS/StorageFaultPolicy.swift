internal import CChaosVFS
import Foundation

/// The seams' side of storage faults, one call at a time (a VFS call or a libc call):
/// which armed faults the call reaches, in the order armed, and what their decisions add
/// up to. Pure state, no locking and no I/O, so it can be tested by feeding it calls.
///
/// A fault sees the calls of the seam it was armed in only. The first fault that fails
/// a call decides its result; faults after it do not see the call (it never reached
/// them). Delays add up.
package struct StorageFaultPolicy {
    /// One call, as a C hook reports it.
    package struct Call {
        var seam: StorageSeam
        var operation: StorageCall.Operation?
        var file: StorageFile?
        var path: UnsafePointer<CChar>?
        var offset: Int64
        var amount: Int32

        /// A call of the fault VFS, by its C codes.
        init(op: Int32, fileKind: Int32, path: UnsafePointer<CChar>?, offset: Int64, amount: Int32) {
            seam = .vfs
            operation = StorageFaultPolicy.operation(of: op)
            file = StorageFaultPolicy.file(fileKind)
            self.path = path
            self.offset = offset
            self.amount = amount
        }

        /// A call of the libc seam: the operation, and the file told by its name.
        init(libc operation: StorageCall.Operation, path: UnsafePointer<CChar>, offset: Int64, amount: Int64) {
            seam = .libc
            self.operation = operation
            file = StorageFaultPolicy.file(named: path)
            self.path = path
            self.offset = offset
            self.amount = Int32(clamping: amount)
        }
    }

    private(set) var armed: [any StorageArming] = []
    private(set) var firings: [StorageFiring] = []
    /// A bound on the firings kept; later ones are counted, not kept.
    package static let maxFirings = 10_000
    private(set) var droppedFirings = 0

    package var isEmpty: Bool { armed.isEmpty }

    package mutating func arm(_ fault: any StorageArming) {
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

    /// Asks every armed fault of the call's seam whose directory holds the file, in the order armed.
    package mutating func decide(_ raw: Call) -> Outcome {
        var outcome = Outcome()
        guard let path = raw.path, let operation = raw.operation, let file = raw.file else {
            return outcome
        }
        var call: StorageCall?
        for index in armed.indices where armed[index].seams.contains(raw.seam) {
            let reaches = armed[index].directory.withUnsafeBufferPointer { prefix in
                strncmp(path, prefix.baseAddress!, prefix.count - 1) == 0
            }
            guard reaches else { continue }
            let current = call ?? StorageCall(operation: operation, file: file, path: String(cString: path),
                                              offset: raw.offset, amount: raw.amount)
            call = current
            guard armed[index].seam == raw.seam || armed[index].declares(current.path) else { continue }
            guard let (effect, hit, fired) = armed[index].decide(current), let effect else { continue }
            let firing = StorageFiring(id: armed[index].id, kind: armed[index].kind, operation: operation.rawValue,
                                       file: file.rawValue, path: current.path, count: hit, resultCode: effect.resultCode,
                                       seam: raw.seam, errno: raw.seam == .libc ? Self.errnoName(effect) : nil)
            record(firing)
            outcome.firings.append((firing, fired))
            outcome.effect.delay += effect.delay
            if effect.resultCode != 0 {
                outcome.effect.resultCode = effect.resultCode
                outcome.effect.errno = effect.errno
                break
            }
        }
        return outcome
    }

    /// Where every armed fault stands.
    package var progress: [FaultStanding] { armed.map(\.progress) }

    private mutating func record(_ firing: StorageFiring) {
        if firings.count < Self.maxFirings { firings.append(firing) } else { droppedFirings += 1 }
    }

    /// The errno (or short read) a libc call got, by name.
    static func errnoName(_ effect: StorageEffect) -> String? {
        let answer = effect.libcAnswer
        if answer == 0 { return nil }
        if answer < 0 { return "short read" }
        return StorageErrno.allCases.first { $0.value == answer }?.rawValue ?? "errno \(answer)"
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

    /// The logical file of a path the libc seam reports: a rollback journal or a WAL by
    /// SQLite's names, nil for a WAL index (`-shm`, shared memory), else the store.
    package static func file(named path: UnsafePointer<CChar>) -> StorageFile? {
        let name = String(cString: path)
        if name.hasSuffix("-shm") { return nil }
        if name.hasSuffix("-wal") { return .wal }
        if name.hasSuffix("-journal") { return .journal }
        return .store
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
    /// The seam that carried it out (nil: the VFS, from an older worker).
    package var seam: StorageSeam?
    /// The errno a libc call failed with (EIO...), or `short read`; nil in the VFS.
    package var errno: String?

    package init(id: String, kind: String, operation: String, file: String, path: String, count: Int, resultCode: Int32,
                 seam: StorageSeam? = nil, errno: String? = nil) {
        self.id = id
        self.kind = kind
        self.operation = operation
        self.file = file
        self.path = path
        self.count = count
        self.resultCode = resultCode
        self.seam = seam
        self.errno = errno
    }

    /// What the call got instead: `result code 13`, `ENOSPC`, `short read`, `delayed`.
    package var outcome: String {
        if resultCode == 0 { return "delayed" }
        if let errno { return errno }
        return "result code \(resultCode)"
    }
}
