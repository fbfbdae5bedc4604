import CChaosVFS
import CSQLite
import Foundation

/// The decisions behind ``StorageFaults``, one VFS call at a time: which armed
/// rules the call matches, whether one fires, and with what. Pure state, no
/// locking and no SQLite calls, so it can be tested by feeding it calls.
struct StorageFaultPolicy {
    /// What the hook should do with one call.
    struct Decision: Equatable {
        /// 0 = let the call through.
        var resultCode: Int32 = 0
        /// Sleep this long first (slow-io).
        var delayNanoseconds: UInt64 = 0
    }

    /// One VFS call, as the C hook reports it.
    struct Call {
        var op: Int32
        var fileKind: Int32
        var path: UnsafePointer<CChar>?
        var offset: Int64
        var amount: Int32
    }

    /// A rule with its running state.
    struct Armed {
        let rule: StorageFaultRule
        /// The file kinds (CHAOS_FILE_* bits) it counts.
        let fileMask: Int32
        /// NUL-terminated directory prefix ending in "/", or nil for every path.
        let directory: [CChar]?
        let trigger: TriggerState
        var hits = 0
        var bytesWritten = 0
        var full = false
        var jitter: SplitMix64

        init(_ rule: StorageFaultRule) {
            self.rule = rule
            self.fileMask = StorageFaultPolicy.fileMask(rule.on)
            self.directory = rule.directory.map { Array($0.utf8CString) }
            self.trigger = TriggerState(trigger: rule.trigger, seed: rule.seed)
            self.jitter = SplitMix64(seed: rule.seed).derived("slow-io/jitter")
        }
    }

    private(set) var rules: [Armed] = []
    private(set) var firings: [StorageFiring] = []
    /// A bound on the firings kept; later ones are counted, not kept.
    static let maxFirings = 10_000
    private(set) var droppedFirings = 0

    var isEmpty: Bool { rules.isEmpty }

    mutating func arm(_ rule: StorageFaultRule) { rules.append(Armed(rule)) }
    mutating func disarm(kind: StorageFaultRule.Kind) { rules.removeAll { $0.rule.kind == kind } }
    mutating func disarmAll() { rules.removeAll() }
    mutating func resetFirings() {
        firings.removeAll()
        droppedFirings = 0
    }

    /// The calls any rule may care about; the hook returns early for the others.
    static func isInteresting(op: Int32) -> Bool {
        switch op {
        case CHAOS_OP_OPEN, CHAOS_OP_READ, CHAOS_OP_WRITE, CHAOS_OP_TRUNCATE, CHAOS_OP_SYNC,
            CHAOS_OP_LOCK, CHAOS_OP_SHM_LOCK, CHAOS_OP_DELETE:
            return true
        default:
            return false
        }
    }

    /// Asks every rule, in the order armed. The first rule that fails the call
    /// decides its result code; rules after it do not see the call (it never
    /// reached them). Slow-io delays add up.
    mutating func decide(_ call: Call) -> Decision {
        var decision = Decision()
        for index in rules.indices {
            guard let operation = Self.match(call, rules[index]) else { continue }
            guard let firing = Self.decide(call, operation: operation, rule: &rules[index], into: &decision) else { continue }
            record(firing)
            if decision.resultCode != 0 { break }
        }
        return decision
    }

    /// Counts a hit for one matching rule and fires it if its trigger says so.
    private static func decide(
        _ call: Call, operation: StorageFaultRule.Operation, rule armed: inout Armed, into decision: inout Decision
    ) -> StorageFiring? {
        let rule = armed.rule
        if rule.kind == .diskFull, let budget = rule.afterBytes, operation == .write, !armed.full,
            armed.bytesWritten + Int(call.amount) <= budget
        {
            armed.bytesWritten += Int(call.amount)
            return nil  // still fits: not a hit
        }
        armed.hits += 1
        guard armed.trigger.shouldFire(hit: armed.hits) else {
            if rule.kind == .diskFull, operation == .write { armed.bytesWritten += Int(call.amount) }
            return nil
        }
        let code: Int32
        switch rule.kind {
        case .diskFull:
            armed.full = true
            code = SQLITE_FULL
        case .ioError:
            code = Self.ioErrorCode(operation)
        case .busy:
            code = SQLITE_BUSY
        case .slowIO:
            let latency = UInt64(max(0, rule.latencyMs ?? 0))
            let jitter = UInt64(armed.jitter.nextInt(in: 0...max(0, rule.jitterMs ?? 0)))
            decision.delayNanoseconds += (latency + jitter) * 1_000_000
            code = 0
        }
        if code != 0 { decision.resultCode = code }
        return StorageFiring(
            kind: rule.kind.rawValue, operation: operation.rawValue, file: fileName(call.fileKind),
            path: call.path.map { String(cString: $0) } ?? "", count: armed.hits, resultCode: code)
    }

    private mutating func record(_ firing: StorageFiring) {
        if firings.count < Self.maxFirings { firings.append(firing) } else { droppedFirings += 1 }
    }

    // MARK: - Matching

    /// The operation `call` is for `armed`, or nil when the rule does not count it.
    static func match(_ call: Call, _ armed: Armed) -> StorageFaultRule.Operation? {
        guard let path = call.path else { return nil }
        if let directory = armed.directory {
            guard directory.withUnsafeBufferPointer({ strncmp(path, $0.baseAddress!, $0.count - 1) == 0 }) else {
                return nil
            }
        }
        let rule = armed.rule
        // The WAL write lock is taken through the main database's handle.
        if call.op == CHAOS_OP_SHM_LOCK {
            let isWriteLock = call.offset == 0 && call.fileKind == CHAOS_FILE_MAIN_DB
            return rule.kind == .busy && isWriteLock && rule.on != .journal ? .lock : nil
        }
        guard call.fileKind & armed.fileMask != 0, let operation = operation(of: call.op) else { return nil }
        switch rule.kind {
        case .diskFull:
            let counted: Bool
            switch operation {
            case .write: counted = rule.operation == nil || rule.operation == .write
            case .truncate: counted = call.amount != 0 && (rule.operation == nil || rule.operation == .truncate)
            default: counted = false
            }
            return counted ? operation : nil
        case .ioError:
            // No operation: any read, write, sync or truncate (the io sweep's "Nth I/O").
            if rule.operation == nil { return [.read, .write, .sync, .truncate].contains(operation) ? operation : nil }
            return operation == rule.operation ? operation : nil
        case .busy:
            let isWriteLock = operation == .lock && call.amount >= SQLITE_LOCK_RESERVED
            return isWriteLock && rule.on != .wal ? .lock : nil
        case .slowIO:
            if let wanted = rule.operation { return operation == wanted ? operation : nil }
            return [.read, .write, .sync].contains(operation) ? operation : nil
        }
    }

    static func operation(of op: Int32) -> StorageFaultRule.Operation? {
        switch op {
        case CHAOS_OP_READ: .read
        case CHAOS_OP_WRITE: .write
        case CHAOS_OP_SYNC: .sync
        case CHAOS_OP_TRUNCATE: .truncate
        case CHAOS_OP_OPEN: .open
        case CHAOS_OP_LOCK: .lock
        case CHAOS_OP_DELETE: .delete
        default: nil
        }
    }

    /// The C file kinds a `StorageFile` names. `journal` is the main rollback
    /// journal only; temp files, statement sub-journals and the -shm never count.
    static func fileMask(_ file: StorageFile) -> Int32 {
        switch file {
        case .store: CHAOS_FILE_MAIN_DB
        case .journal: CHAOS_FILE_MAIN_JOURNAL
        case .wal: CHAOS_FILE_WAL
        case .any: CHAOS_FILE_MAIN_DB | CHAOS_FILE_MAIN_JOURNAL | CHAOS_FILE_WAL
        }
    }

    static func fileName(_ kind: Int32) -> String {
        switch kind {
        case CHAOS_FILE_MAIN_DB: "store"
        case CHAOS_FILE_MAIN_JOURNAL: "journal"
        case CHAOS_FILE_WAL: "wal"
        default: "other"
        }
    }

    /// The extended result code an io-error returns for `operation`. Swift does not
    /// import SQLite's composite `SQLITE_IOERR_*` macros: they are `SQLITE_IOERR | (n << 8)`.
    static func ioErrorCode(_ operation: StorageFaultRule.Operation) -> Int32 {
        switch operation {
        case .read: SQLITE_IOERR | (1 << 8)  // SQLITE_IOERR_READ 266
        case .write: SQLITE_IOERR | (3 << 8)  // SQLITE_IOERR_WRITE 778
        case .sync: SQLITE_IOERR | (4 << 8)  // SQLITE_IOERR_FSYNC 1034
        case .truncate: SQLITE_IOERR | (6 << 8)  // SQLITE_IOERR_TRUNCATE 1546
        case .delete: SQLITE_IOERR | (10 << 8)  // SQLITE_IOERR_DELETE 2570
        case .lock: SQLITE_IOERR | (15 << 8)  // SQLITE_IOERR_LOCK 3850
        case .open: SQLITE_CANTOPEN  // 14
        }
    }

    // MARK: - Validation

    /// Nil when the rule makes sense; otherwise what is wrong with it.
    static func problem(with rule: StorageFaultRule) -> String? {
        let name = rule.kind.rawValue
        if rule.kind != .diskFull, rule.afterBytes != nil { return "'afterBytes' applies to disk-full only, not \(name)" }
        if rule.kind != .slowIO, rule.latencyMs != nil || rule.jitterMs != nil {
            return "'latencyMs' and 'jitterMs' apply to slow-io only, not \(name)"
        }
        switch rule.kind {
        case .diskFull:
            if let operation = rule.operation, operation != .write, operation != .truncate {
                return "disk-full fails writes and growing truncates, not '\(operation.rawValue)'"
            }
            if let bytes = rule.afterBytes, bytes < 0 { return "'afterBytes' must not be negative, found \(bytes)" }
        case .ioError:
            break
        case .busy:
            if let operation = rule.operation, operation != .lock {
                return "busy fails lock requests only, not '\(operation.rawValue)'"
            }
            if rule.on == .journal { return "busy is about the write lock of the store or the WAL, not the journal" }
        case .slowIO:
            let range = 0...StorageFaultRule.maxLatencyMs
            for (key, value) in [("latencyMs", rule.latencyMs), ("jitterMs", rule.jitterMs)] {
                if let value, !range.contains(value) {
                    return "'\(key)' must be from 0 to \(range.upperBound), found \(value)"
                }
            }
            if (rule.latencyMs ?? 0) == 0, (rule.jitterMs ?? 0) == 0 { return "slow-io needs 'latencyMs' or 'jitterMs'" }
        }
        if rule.trigger.after < 0 { return "the trigger's 'after' must not be negative" }
        if let times = rule.trigger.times, times < 1 { return "the trigger's 'times' must be at least 1" }
        if let chance = rule.trigger.probability, !(chance > 0 && chance <= 1) {
            return "the trigger's 'probability' must be in (0, 1], found \(chance)"
        }
        return nil
    }
}

/// A directory as a path prefix the VFS can compare with the full paths SQLite
/// hands it: symlinks resolved (as SQLite's unix VFS resolves them), ending in "/".
enum StoragePathPrefix {
    static func of(directory: String) -> String {
        var path = directory
        if let resolved = realpath(directory, nil) {
            path = String(cString: resolved)
            free(resolved)
        }
        return path.hasSuffix("/") ? path : path + "/"
    }
}
